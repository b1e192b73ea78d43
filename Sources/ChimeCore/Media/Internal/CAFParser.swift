/// Core Audio Format: `caff` version 1, a `desc` chunk first (sample rate, format, packet
/// layout), a `data` chunk (whose size may be -1 only when it runs to the end of the file) and,
/// for variable or remainder-framed formats, a `pakt` chunk with the valid frame count.
enum CAFParser {
  struct Info {
    var sampleRate: Double
    var formatID: UInt32
    var formatFlags: UInt32
    var bytesPerPacket: UInt32
    var framesPerPacket: UInt32
    var channels: UInt32
    var bitsPerChannel: UInt32
    /// Audio bytes in `data` (after its 4-byte edit count).
    var audioBytes: Int
    var validFrames: Int64?

    var isFloat: Bool { formatFlags & 1 != 0 }

    /// Frames of audio when the layout allows counting them: `pakt`'s valid frames, else whole
    /// packets × frames per packet for constant-size packets. Nil otherwise.
    func frames() throws(MediaParseError) -> UInt64? {
      let packetFrames = UInt64(framesPerPacket)
      var capacity: UInt64?
      if bytesPerPacket > 0 && framesPerPacket > 0 {
        let (c, overflow) = UInt64(audioBytes / Int(bytesPerPacket)).multipliedReportingOverflow(by: packetFrames)
        guard !overflow else { throw .corrupt("CAF frame count overflows") }
        capacity = c
      }
      if let valid = validFrames {
        guard valid >= 0 else { throw .corrupt("CAF pakt has a negative frame count \(valid)") }
        if let capacity, UInt64(valid) > capacity {
          throw .corrupt("CAF pakt claims \(valid) frames, the data holds at most \(capacity)")
        }
        return UInt64(valid)
      }
      return capacity
    }
  }

  static func parse(_ r: ByteReader) throws(MediaParseError) -> Info {
    r.format = "CAF"
    guard r.has(8, at: 0), try r.u32be(0) == fourCC("caff") else { throw .unrecognized("no caff header") }
    let version = try r.u16be(4)
    guard version == 1 else { throw .corrupt("CAF file version is \(version), not 1") }
    var pos = 8
    var info: Info?
    var sawData = false
    var chunks = 0
    while pos < r.count {
      chunks += 1
      guard chunks <= ParseLimits.maxElements else { throw .corrupt("CAF has more than \(ParseLimits.maxElements) chunks") }
      guard r.has(12, at: pos) else {
        throw .corrupt("CAF chunk header at offset \(pos) is cut off after \(r.count - pos) bytes")
      }
      let type = try r.u32be(pos)
      let declared = Int64(bitPattern: try r.u64be(pos + 4))
      let data = pos + 12
      let size: Int
      if declared == -1 && type == fourCC("data") {
        size = r.count - data  // runs to the end of the file
      } else {
        guard declared >= 0, declared <= Int64(r.count - data) else {
          throw .corrupt("CAF chunk '\(fourCCString(type))' at offset \(pos) declares \(declared) bytes, past the end of the file (\(r.count - data) left)")
        }
        size = Int(declared)
      }
      if info == nil && type != fourCC("desc") {
        throw .corrupt("CAF's first chunk is '\(fourCCString(type))', not desc")
      }
      switch type {
      case fourCC("desc"):
        guard info == nil else { throw .corrupt("CAF has a second desc chunk at offset \(pos)") }
        guard size >= 32 else { throw .corrupt("CAF desc chunk is \(size) bytes, not 32") }
        let d = try r.bytes(data, 32)
        let rate = Double(bitPattern: Bytes.u64be(d, 0))
        guard rate.isFinite, rate > 0, rate <= 10_000_000 else {
          throw .corrupt("CAF desc sample rate is not a positive number up to 10 MHz")
        }
        let channels = Bytes.u32be(d, 24)
        guard channels >= 1 else { throw .corrupt("CAF desc has 0 channels") }
        info = Info(sampleRate: rate, formatID: Bytes.u32be(d, 8), formatFlags: Bytes.u32be(d, 12),
                    bytesPerPacket: Bytes.u32be(d, 16), framesPerPacket: Bytes.u32be(d, 20),
                    channels: channels, bitsPerChannel: Bytes.u32be(d, 28), audioBytes: 0, validFrames: nil)
      case fourCC("data"):
        guard !sawData else { throw .corrupt("CAF has a second data chunk at offset \(pos)") }
        guard size >= 4 else { throw .corrupt("CAF data chunk is \(size) bytes, too short for its edit count") }
        sawData = true
        info?.audioBytes = size - 4
      case fourCC("pakt"):
        guard size >= 24 else { throw .corrupt("CAF pakt chunk is \(size) bytes, too short") }
        let p = try r.bytes(data, 24)
        let packets = Int64(bitPattern: Bytes.u64be(p, 0))
        let valid = Int64(bitPattern: Bytes.u64be(p, 8))
        guard packets >= 0, valid >= 0 else { throw .corrupt("CAF pakt has negative counts") }
        info?.validFrames = valid
      default:
        break
      }
      pos = data + size
    }
    guard let result = info else { throw .corrupt("CAF has no desc chunk") }
    guard sawData else { throw .corrupt("CAF has no data chunk") }
    return result
  }
}
