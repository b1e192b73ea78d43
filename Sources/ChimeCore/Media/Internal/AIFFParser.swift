/// AIFF and AIFF-C: `FORM`/`AIFF`|`AIFC`, a `COMM` chunk (channels, frames, sample size,
/// 80-bit sample rate, AIFF-C compression type) and an `SSND` chunk big enough for the frames
/// `COMM` declares whenever the compression's frame size is known.
enum AIFFParser {
  struct Info {
    var isAIFC: Bool
    /// `NONE` for plain AIFF.
    var compression: UInt32
    var channels: Int
    /// `COMM`'s numSampleFrames (for `ima4`, packets of 64 frames).
    var declaredFrames: UInt32
    var bitsPerSample: Int
    var sampleRate: Double
    var soundDataSize: Int

    /// Frames of audio: for `ima4` each declared "frame" is a 64-frame packet.
    var frames: UInt64 {
      compression == fourCC("ima4") ? UInt64(declaredFrames) * 64 : UInt64(declaredFrames)
    }
  }

  /// Bytes one frame (one `ima4` packet) takes in `SSND` for the compression types whose size is
  /// fixed; nil for the others.
  static func bytesPerFrame(compression: UInt32, channels: Int, bits: Int) -> Int? {
    switch compression {
    case fourCC("NONE"), fourCC("twos"), fourCC("sowt"), fourCC("raw "), fourCC("in24"), fourCC("in32"), fourCC("42ni"), fourCC("23ni"):
      return channels * ((bits + 7) / 8)
    case fourCC("fl32"), fourCC("FL32"): return channels * 4
    case fourCC("fl64"), fourCC("FL64"): return channels * 8
    case fourCC("ulaw"), fourCC("ULAW"), fourCC("alaw"), fourCC("ALAW"): return channels
    case fourCC("ima4"): return channels * 34
    default: return nil
    }
  }

  static func parse(_ r: ByteReader) throws(MediaParseError) -> Info {
    r.format = "AIFF"
    let (form, end) = try IFFChunks.outer(r, magic: fourCC("FORM"), bigEndian: true)
    let isAIFC: Bool
    switch form {
    case fourCC("AIFF"): isAIFC = false
    case fourCC("AIFC"): isAIFC = true
    default: throw .unrecognized("FORM type is \(fourCCString(form)), not AIFF or AIFC")
    }
    r.format = isAIFC ? "AIFC" : "AIFF"
    var info: Info?
    var ssnd: IFFChunk?
    for c in try IFFChunks.list(r, 12, end, bigEndian: true, parent: "the FORM container") {
      switch c.id {
      case fourCC("COMM"):
        guard info == nil else { throw .corrupt("\(r.format) has a second COMM chunk at offset \(c.start)") }
        guard c.size >= (isAIFC ? 22 : 18) else { throw .corrupt("\(r.format) COMM chunk is \(c.size) bytes, too short") }
        let b = try r.bytes(c.data, isAIFC ? 22 : 18)
        let channels = Int(Int16(bitPattern: Bytes.u16be(b, 0)))
        let bits = Int(Int16(bitPattern: Bytes.u16be(b, 6)))
        guard channels >= 1 else { throw .corrupt("\(r.format) COMM has \(channels) channels") }
        guard let rate = Extended80.decode(Array(b[8..<18])), rate > 0, rate <= 10_000_000 else {
          throw .corrupt("\(r.format) COMM sample rate is not a positive number up to 10 MHz")
        }
        let compression = isAIFC ? Bytes.u32be(b, 18) : fourCC("NONE")
        if compression == fourCC("NONE") || compression == fourCC("twos") || compression == fourCC("sowt") {
          guard bits >= 1, bits <= 32 else { throw .corrupt("\(r.format) COMM sample size is \(bits) bits, not 1…32") }
        }
        info = Info(isAIFC: isAIFC, compression: compression, channels: channels, declaredFrames: Bytes.u32be(b, 2),
                    bitsPerSample: bits, sampleRate: rate, soundDataSize: 0)
      case fourCC("SSND"):
        guard ssnd == nil else { throw .corrupt("\(r.format) has a second SSND chunk at offset \(c.start)") }
        guard c.size >= 8 else { throw .corrupt("\(r.format) SSND chunk is \(c.size) bytes, too short") }
        ssnd = c
      default:
        break
      }
    }
    guard var result = info else { throw .corrupt("\(r.format) has no COMM chunk") }
    if let s = ssnd {
      let offset = Int(try r.u32be(s.data))
      guard offset <= s.size - 8 else {
        throw .corrupt("\(r.format) SSND data offset \(offset) is past the end of the chunk")
      }
      result.soundDataSize = s.size - 8 - offset
    } else if result.declaredFrames > 0 {
      throw .corrupt("\(r.format) declares \(result.declaredFrames) frames but has no SSND chunk")
    }
    if let perFrame = bytesPerFrame(compression: result.compression, channels: result.channels, bits: result.bitsPerSample) {
      let needed = try Int(result.declaredFrames).times(perFrame, "\(r.format) sound data")
      guard needed <= result.soundDataSize else {
        throw .corrupt("\(r.format) COMM declares \(result.declaredFrames) frames (\(needed) bytes) but SSND holds \(result.soundDataSize) bytes")
      }
    }
    return result
  }

  static func facts(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    let i = try parse(r)
    return MediaFacts(type: .aiff, bytes: UInt64(r.count), durationSeconds: Double(i.frames) / i.sampleRate)
  }
}
