/// WAV: `RIFF`/`WAVE` with `fmt ` before `data`, sizes inside the file. Reports the format
/// (with WAVE_FORMAT_EXTENSIBLE's subformat) and the frame count the data holds.
///
/// A WAV written to a pipe cannot go back to fill in its sizes, so its writer leaves a
/// placeholder: 0 or 0xFFFFFFFF (ffmpeg), 0x7FFFF000 (sox), 0x80000000 (arecord). When the
/// `RIFF` size is 0 or 0xFFFFFFFF, or runs past the end of the file while the `data` size is one
/// of those placeholders, the file is a stream: the container and its `data` chunk run to the
/// end of the file, as players read them. Any other size past the end is a truncated file.
enum WAVParser {
  /// `data` sizes streaming writers put in a header they cannot rewrite.
  static let streamingDataSizes: Set<Int> = [0, 0xFFFF_FFFF, 0x7FFF_F000, 0x8000_0000]
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
    guard r.has(12, at: 0), try r.u32be(0) == fourCC("RIFF") else { throw .unrecognized("no RIFF header") }
    let declared = Int(try r.u32le(4))
    let chunks: [IFFChunk]
    if declared == 0 || declared == 0xFFFF_FFFF {
      chunks = try streamChunks(r)
    } else {
      do throws(MediaParseError) {
        let (_, end) = try IFFChunks.outer(r, magic: fourCC("RIFF"), bigEndian: false)
        chunks = try IFFChunks.list(r, 12, end, bigEndian: false, parent: "the RIFF container")
      } catch {
        // A size past the end is a stream's when its data chunk has a placeholder size too.
        guard declared > r.count - 8, let streamed = try? streamChunks(r),
              let data = streamed.first(where: { $0.id == fourCC("data") }), streamingDataSizes.contains(data.declaredSize) else {
          throw error
        }
        chunks = streamed
      }
    }
    guard try r.u32be(8) == fourCC("WAVE") else { throw .unrecognized("RIFF form is \(fourCCString(try r.u32be(8))), not WAVE") }
    var info: Info?
    var fact: UInt32?
    var dataSize: Int?
    for c in chunks {
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

  /// The chunks of a streamed WAV: the container runs to the end of the file, and so does a
  /// `data` chunk whose size is a placeholder.
  private static func streamChunks(_ r: ByteReader) throws(MediaParseError) -> [IFFChunk] {
    try IFFChunks.list(r, 12, r.count, bigEndian: false, parent: "the RIFF container (streamed: to the end of the file)") { id, size in
      id == fourCC("data") && streamingDataSizes.contains(size)
    }
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
