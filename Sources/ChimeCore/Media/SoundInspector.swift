/// Reads a custom notification sound's headers (UNNotificationSound): AIFF/AIFF-C, WAV
/// (including WAVE_FORMAT_EXTENSIBLE) and CAF, reporting container, codec, channels, rate and
/// frames. Only headers and chunk tables are read, never the audio itself.
public enum SoundInspector {
  /// - Throws: INVALID_ARGUMENT with reason `SOUND_CORRUPT` (empty file, broken or
  ///   inconsistent headers, data shorter than the headers claim) or
  ///   `SOUND_UNSUPPORTED_FORMAT` (not AIFF, WAV or CAF); `MEDIA_READ_FAILED` (INTERNAL) when
  ///   the source cannot be read. An unplayable codec in a sound container is not an error:
  ///   it is reported in the facts and `SoundRules.verdict` refuses it.
  public static func inspect(_ source: some ByteSource) throws(ChimeError) -> SoundFacts {
    guard source.count > 0 else {
      throw ChimeError(.soundCorrupt, "the sound file is empty (0 bytes)")
    }
    let r = ByteReader(source)
    do throws(MediaParseError) {
      let head = try r.bytes(0, min(12, r.count))
      func at(_ offset: Int, _ magic: String) -> Bool {
        let m = Array(magic.utf8)
        return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
      }
      if at(0, "RIFF") && at(8, "WAVE") { return try wav(r) }
      if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return try aiff(r) }
      if at(0, "caff") { return try caf(r) }
      throw MediaParseError.unrecognized("the file is not AIFF, WAV or CAF")
    } catch {
      switch error {
      case .corrupt(let message):
        throw ChimeError(.soundCorrupt, message)
      case .unrecognized(let message):
        throw ChimeError(.soundUnsupportedFormat, message)
      case .io(let e):
        throw e
      }
    }
  }

  private static func wav(_ r: ByteReader) throws(MediaParseError) -> SoundFacts {
    let i = try WAVParser.parse(r)
    let codec: SoundCodec
    switch i.formatTag {
    case WAVParser.pcm: codec = .lpcm
    case WAVParser.float: codec = .float
    case WAVParser.imaADPCM: codec = .ima4
    case WAVParser.ulaw: codec = .ulaw
    case WAVParser.alaw: codec = .alaw
    case 0x0002: codec = SoundCodec(rawValue: "msadpcm")
    case 0x0031: codec = SoundCodec(rawValue: "gsm")
    case 0x0050: codec = SoundCodec(rawValue: "mp2")
    case 0x0055: codec = SoundCodec(rawValue: "mp3")
    case 0x00FF, 0x1610, 0x1602, 0x706D: codec = SoundCodec(rawValue: "aac")
    case nil: codec = SoundCodec(rawValue: "wav-extensible-unknown-subformat")
    case let tag?: codec = SoundCodec(rawValue: "wav-\(hex(tag, width: 4))")
    }
    return SoundFacts(container: .wav, codec: codec, channels: UInt32(i.channels), sampleRate: Double(i.sampleRate),
                      bitsPerSample: UInt32(i.bitsPerSample), frames: try WAVParser.frames(i))
  }

  private static func aiff(_ r: ByteReader) throws(MediaParseError) -> SoundFacts {
    let i = try AIFFParser.parse(r)
    let codec: SoundCodec
    var bits = i.bitsPerSample
    switch i.compression {
    case fourCC("NONE"), fourCC("twos"), fourCC("sowt"):
      codec = .lpcm
    case fourCC("fl32"), fourCC("FL32"):
      codec = .float
      bits = 32
    case fourCC("fl64"), fourCC("FL64"):
      codec = .float
      bits = 64
    case fourCC("ima4"):
      codec = .ima4
      bits = 4
    case fourCC("ulaw"), fourCC("ULAW"):
      codec = .ulaw
      bits = 8
    case fourCC("alaw"), fourCC("ALAW"):
      codec = .alaw
      bits = 8
    case let other:
      codec = SoundCodec(rawValue: fourCCString(other).trimmingSpaces)
    }
    return SoundFacts(container: i.isAIFC ? .aifc : .aiff, codec: codec, channels: UInt32(i.channels),
                      sampleRate: i.sampleRate, bitsPerSample: UInt32(max(0, bits)), frames: i.frames)
  }

  private static func caf(_ r: ByteReader) throws(MediaParseError) -> SoundFacts {
    let i = try CAFParser.parse(r)
    var codec: SoundCodec
    var bits = i.bitsPerChannel
    switch i.formatID {
    case fourCC("lpcm"):
      codec = i.isFloat ? .float : .lpcm
      let bytes = Int(i.channels).multipliedReportingOverflow(by: (Int(bits) + 7) / 8)
      guard i.framesPerPacket == 1, bits > 0, !bytes.overflow, Int(i.bytesPerPacket) >= bytes.partialValue else {
        throw .corrupt("CAF linear PCM description is inconsistent (\(i.channels) channels of \(bits) bits in \(i.bytesPerPacket)-byte packets of \(i.framesPerPacket) frames)")
      }
    case fourCC("ulaw"), fourCC("alaw"):
      codec = i.formatID == fourCC("ulaw") ? .ulaw : .alaw
      bits = 8
      guard i.framesPerPacket == 1, UInt64(i.bytesPerPacket) == UInt64(i.channels) else {
        throw .corrupt("CAF G.711 description is inconsistent (\(i.bytesPerPacket)-byte packets for \(i.channels) channels)")
      }
    case fourCC("ima4"):
      codec = .ima4
      bits = 4
      guard i.framesPerPacket == 64, UInt64(i.bytesPerPacket) == 34 * UInt64(i.channels) else {
        throw .corrupt("CAF IMA4 description is inconsistent (\(i.bytesPerPacket)-byte packets of \(i.framesPerPacket) frames for \(i.channels) channels)")
      }
    case fourCC("aac "): codec = SoundCodec(rawValue: "aac")
    case fourCC(".mp3"): codec = SoundCodec(rawValue: "mp3")
    case fourCC("alac"): codec = SoundCodec(rawValue: "alac")
    case fourCC("opus"): codec = SoundCodec(rawValue: "opus")
    case let other: codec = SoundCodec(rawValue: fourCCString(other).trimmingSpaces)
    }
    let frames: UInt64?
    if codec.isPlayable {
      frames = try i.frames()
    } else {
      frames = try? i.frames()
    }
    return SoundFacts(container: .caf, codec: codec, channels: i.channels, sampleRate: i.sampleRate,
                      bitsPerSample: bits, frames: frames)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while s.last == " " { s = s.dropLast() }
    while s.first == "." { s = s.dropFirst() }
    return s.lowercased()
  }
}
