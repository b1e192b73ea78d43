/// Decides the container family from the first bytes (never the file name).
enum MediaFamily {
  case png, jpeg, gif, mp3, isobmff, wav, avi, aiff, mpegPS, mpegVideo

  /// The types the bytes of this family can turn out to be.
  var candidates: [MediaType] {
    switch self {
    case .png: [.png]
    case .jpeg: [.jpeg]
    case .gif: [.gif]
    case .mp3: [.mp3]
    case .isobmff: [.mpeg4Audio, .mpeg4]
    case .wav: [.wav]
    case .avi: [.avi]
    case .aiff: [.aiff]
    case .mpegPS, .mpegVideo: [.mpeg, .mpeg2Video]
    }
  }

  /// The class when the family alone decides it (not MPEG-4, whose tracks do).
  var fixedClass: MediaClass? {
    self == .isobmff ? nil : candidates[0].mediaClass
  }

  func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    switch self {
    case .png: try PNGParser.parse(r)
    case .jpeg: try JPEGParser.parse(r)
    case .gif: try GIFParser.parse(r)
    case .mp3: try MP3Parser.parse(r)
    case .isobmff: try ISOBMFFParser.parse(r)
    case .wav: try WAVParser.facts(r)
    case .avi: try AVIParser.parse(r)
    case .aiff: try AIFFParser.facts(r)
    case .mpegPS: try MPEGPSParser.parse(r)
    case .mpegVideo: try MPEGESParser.parse(r)
    }
  }
}

enum Sniffer {
  /// The family, or an `.unrecognized` error naming what the bytes look like when known.
  static func family(_ r: ByteReader) throws(MediaParseError) -> MediaFamily {
    let head = try r.bytes(0, min(r.count, 16))
    func starts(_ magic: String, at offset: Int = 0) -> Bool {
      let m = Array(magic.utf8)
      return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
    }
    if head.count >= 8 && Array(head[0..<8]) == PNGParser.signature { return .png }
    if head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF { return .jpeg }
    if starts("GIF87a") || starts("GIF89a") { return .gif }
    if starts("RIFF") && starts("WAVE", at: 8) { return .wav }
    if starts("RIFF") && starts("AVI ", at: 8) { return .avi }
    if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) { return .aiff }
    if starts("ftyp", at: 4) { return .isobmff }
    if head.count >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 1 && head[3] == 0xBA { return .mpegPS }
    if head.count >= 4 && head[0] == 0 && head[1] == 0 && head[2] == 1 && head[3] == 0xB3 { return .mpegVideo }
    if starts("ID3") { return .mp3 }
    if head.count >= 4, MP3Parser.header(Array(head[0..<4])) != nil, try MP3Parser.looksLikeFrames(r, at: 0) { return .mp3 }
    throw .unrecognized(describeUnsupported(head, transportStream: try transportStream(r)))
  }

  /// The name of an MPEG transport stream when the packet sync byte 0x47 repeats every 188
  /// bytes (or every 192, the 4-byte timestamp of Blu-ray's M2TS before each packet) for the
  /// first three packets, or as many as the file holds if it is shorter but has two.
  private static func transportStream(_ r: ByteReader) throws(MediaParseError) -> String? {
    for (stride, first, name) in [(188, 0, "an MPEG transport stream (public.mpeg-2-transport-stream)"),
                                  (192, 4, "a BDAV MPEG-2 transport stream (public.avchd-mpeg-2-transport-stream)")] {
      let packets = min(3, r.remaining(from: first) / stride + (r.remaining(from: first) % stride > 0 ? 1 : 0))
      guard packets >= 2 else { continue }
      var synced = true
      for i in 0..<packets where try r.u8(first + i * stride) != 0x47 {
        synced = false
        break
      }
      if synced { return name }
    }
    return nil
  }

  /// What the file seems to be, for the error message.
  private static func describeUnsupported(_ head: [UInt8], transportStream: String?) -> String {
    func starts(_ magic: String, at offset: Int = 0) -> Bool {
      let m = Array(magic.utf8)
      return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
    }
    let known: [(Bool, String)] = [
      (starts("caff"), "CAF audio (com.apple.coreaudio-format)"),
      // An old QuickTime movie has no ftyp: its first atom is the media data or the movie.
      (["mdat", "moov", "wide", "free", "skip", "pnot"].contains { starts($0, at: 4) }, "a QuickTime movie (com.apple.quicktime-movie)"),
      (starts("RIFF") && starts("WEBP", at: 8), "a WebP image (org.webmproject.webp)"),
      (starts("RIFF"), "a RIFF file of an unsupported form"),
      (starts("FORM"), "an IFF file of an unsupported form"),
      (starts("fLaC"), "FLAC audio (org.xiph.flac)"),
      (starts("OggS"), "an Ogg file"),
      (starts("BM"), "a BMP image (com.microsoft.bmp)"),
      (starts("II*\u{0}") || starts("MM\u{0}*"), "a TIFF image (public.tiff)"),
      (starts("%PDF"), "a PDF document (com.adobe.pdf)"),
      (head.count >= 2 && head[0] == 0xFF && head[1] & 0xF6 == 0xF0, "AAC audio in ADTS (public.aac-audio)"),
      (transportStream != nil, transportStream ?? ""),
      (head.count >= 4 && head[0] == 0x1A && head[1] == 0x45 && head[2] == 0xDF && head[3] == 0xA3, "a Matroska/WebM file"),
    ]
    if let hit = known.first(where: { $0.0 }) {
      return "the file is \(hit.1), not a supported attachment type"
    }
    let shown = head.prefix(8).map { hex($0).dropFirst(2) }.joined(separator: " ")
    return "the file's bytes are not any supported attachment type (it begins \(shown.isEmpty ? "with nothing" : shown))"
  }
}
