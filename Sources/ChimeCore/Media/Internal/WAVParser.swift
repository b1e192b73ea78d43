/// WAV: `RIFF`/`WAVE` with `fmt ` before `data`, sizes inside the file. Reports the format
/// (with WAVE_FORMAT_EXTENSIBLE's subformat) and the frame count the data holds.
enum WAVParser {
  struct Info {
    /// The format tag, or for WAVE_FORMAT_EXTENSIBLE the subformat's tag when its GUID is one of
    /// the standard `XXXXXXXX-0000-0010-8000-00AA00389B71` family (else nil).
    var formatTag: UInt16?
    var declaredTag: UInt16
    var extensible: Bool
    var channels: UInt16
    var sampleRate: UInt32
    var byteRate: UInt32
    var blockAlign: UInt16
    var bitsPerSample: UInt16
    var samplesPerBlock: UInt16
    var dataSize: Int
    var factFrames: UInt32?
  }

  static let pcm: UInt16 = 0x0001
  static let float: UInt16 = 0x0003
  static let alaw: UInt16 = 0x0006
  static let ulaw: UInt16 = 0x0007
  static let imaADPCM: UInt16 = 0x0011
  static let extensibleTag: UInt16 = 0xFFFE
  private static let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

  static func parse(_ r: ByteReader) throws(MediaParseError) -> Info {
    r.format = "WAV"
    let (form, end) = try IFFChunks.outer(r, magic: fourCC("RIFF"), bigEndian: false)
    guard form == fourCC("WAVE") else { throw .unrecognized("RIFF form is \(fourCCString(form)), not WAVE") }
    var info: Info?
    var fact: UInt32?
    var dataSize: Int?
    for c in try IFFChunks.list(r, 12, end, bigEndian: false, parent: "the RIFF container") {
      switch c.id {
      case fourCC("fmt "):
        guard info == nil else { throw .corrupt("WAV has a second fmt chunk at offset \(c.start)") }
        guard c.size >= 14 else { throw .corrupt("WAV fmt chunk is \(c.size) bytes, too short") }
        let f = try r.bytes(c.data, min(c.size, 40))
        let tag = Bytes.u16le(f, 0)
        var i = Info(formatTag: tag, declaredTag: tag, extensible: false, channels: Bytes.u16le(f, 2),
                     sampleRate: Bytes.u32le(f, 4), byteRate: Bytes.u32le(f, 8), blockAlign: Bytes.u16le(f, 12),
                     bitsPerSample: f.count >= 16 ? Bytes.u16le(f, 14) : 0, samplesPerBlock: 0, dataSize: 0, factFrames: nil)
        let extra = f.count >= 18 ? Int(Bytes.u16le(f, 16)) : 0
        guard extra <= c.size - 18 || extra == 0 else {
          throw .corrupt("WAV fmt extension declares \(extra) bytes, more than the chunk holds")
        }
        if tag == extensibleTag {
          guard f.count >= 40, extra >= 22 else { throw .corrupt("WAV extensible fmt chunk is too short for its subformat") }
          i.extensible = true
          let valid = Bytes.u16le(f, 18)
          if valid != 0 && valid <= i.bitsPerSample { i.bitsPerSample = valid }
          i.formatTag = Array(f[26..<40]) == guidTail ? Bytes.u16le(f, 24) : nil
        } else if tag == imaADPCM, extra >= 2 {
          i.samplesPerBlock = Bytes.u16le(f, 18)
        }
        guard i.channels > 0 else { throw .corrupt("WAV fmt chunk has 0 channels") }
        guard i.sampleRate > 0 else { throw .corrupt("WAV fmt chunk has sample rate 0") }
        guard i.blockAlign > 0 else { throw .corrupt("WAV fmt chunk has block align 0") }
        info = i
      case fourCC("fact"):
        guard c.size >= 4 else { throw .corrupt("WAV fact chunk is \(c.size) bytes, too short") }
        fact = try r.u32le(c.data)
      case fourCC("data"):
        guard info != nil else { throw .corrupt("WAV data chunk at offset \(c.start) comes before the fmt chunk") }
        guard dataSize == nil else { throw .corrupt("WAV has a second data chunk at offset \(c.start)") }
        dataSize = c.size
      default:
        break
      }
    }
    guard var result = info else { throw .corrupt("WAV has no fmt chunk") }
    guard let size = dataSize else { throw .corrupt("WAV has no data chunk") }
    result.dataSize = size
    result.factFrames = fact
    return result
  }

  /// Frames in the data chunk: exact for PCM, float and G.711 (bytes ÷ block align), for IMA
  /// ADPCM from `fact` (checked against the blocks present) or the blocks, else from `fact`.
  /// Nil when the format gives no way to count.
  static func frames(_ i: Info) throws(MediaParseError) -> UInt64? {
    switch i.formatTag {
    case pcm, float, alaw, ulaw:
      let bytesPerSample = (Int(i.bitsPerSample) + 7) / 8
      guard bytesPerSample > 0, Int(i.blockAlign) >= Int(i.channels) * bytesPerSample else {
        throw .corrupt("WAV block align \(i.blockAlign) is too small for \(i.channels) channels of \(i.bitsPerSample) bits")
      }
      return UInt64(i.dataSize / Int(i.blockAlign))
    case imaADPCM:
      let header = 4 * Int(i.channels)
      guard Int(i.blockAlign) > header else {
        throw .corrupt("WAV IMA ADPCM block align \(i.blockAlign) is too small for \(i.channels) channels")
      }
      let perBlock = (Int(i.blockAlign) - header) * 2 / Int(i.channels) + 1
      if i.samplesPerBlock != 0 && Int(i.samplesPerBlock) != perBlock {
        throw .corrupt("WAV IMA ADPCM says \(i.samplesPerBlock) samples per block, its block align gives \(perBlock)")
      }
      let blocks = i.dataSize / Int(i.blockAlign)
      let partial = i.dataSize % Int(i.blockAlign)
      var capacity = blocks * perBlock
      if partial > header { capacity += (partial - header) * 2 / Int(i.channels) + 1 }
      if let fact = i.factFrames {
        guard Int(fact) <= capacity else {
          throw .corrupt("WAV fact chunk claims \(fact) frames, the data holds at most \(capacity)")
        }
        return UInt64(fact)
      }
      return UInt64(capacity)
    default:
      return i.factFrames.map { UInt64($0) }
    }
  }

  /// Seconds: frames ÷ rate where frames are known, else data bytes ÷ byte rate.
  static func duration(_ i: Info) throws(MediaParseError) -> Double {
    if let frames = try frames(i) {
      return Double(frames) / Double(i.sampleRate)
    }
    return i.byteRate > 0 ? Double(i.dataSize) / Double(i.byteRate) : 0
  }

  static func facts(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    let i = try parse(r)
    return MediaFacts(type: .wav, bytes: UInt64(r.count), durationSeconds: try duration(i))
  }
}
