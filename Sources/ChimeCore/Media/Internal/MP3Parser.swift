/// MP3 (MPEG-1/2/2.5 Layer III): optional ID3v2 tags, then consecutive frames to the end of the
/// file, each header checked and each frame's length taken from it; an ID3v1 or APE tag may
/// close the file. The duration is exact: samples walked ÷ sample rate (a Xing/Info/VBRI
/// header frame is not counted as audio).
enum MP3Parser {
  struct FrameHeader: Equatable {
    /// 1 = MPEG-1, 2 = MPEG-2, 25 = MPEG-2.5.
    var version: Int
    var sampleRate: Int
    var bitrateKbps: Int
    var padding: Bool
    var mono: Bool

    var length: Int {
      version == 1 ? 144_000 * bitrateKbps / sampleRate + (padding ? 1 : 0)
        : 72_000 * bitrateKbps / sampleRate + (padding ? 1 : 0)
    }

    var samples: Int { version == 1 ? 1152 : 576 }

    /// Offset of a Xing/Info tag from the frame start (after the side information).
    var sideInfoEnd: Int {
      version == 1 ? (mono ? 21 : 36) : (mono ? 13 : 21)
    }

    func sameStream(_ other: FrameHeader) -> Bool {
      version == other.version && sampleRate == other.sampleRate
    }
  }

  private static let bitratesV1: [Int] = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
  private static let bitratesV2: [Int] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0]

  /// A Layer III frame header, or nil if the four bytes are not one (free-format bitrate and
  /// reserved values are refused).
  static func header(_ b: [UInt8]) -> FrameHeader? {
    guard b.count >= 4, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
    let versionBits = (b[1] >> 3) & 0x03
    let layerBits = (b[1] >> 1) & 0x03
    guard versionBits != 1, layerBits == 1 else { return nil }
    let version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
    let bitrateIndex = Int(b[2] >> 4)
    let rateIndex = Int((b[2] >> 2) & 0x03)
    guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b[3] & 0x03 != 2 else { return nil }
    let base = [44100, 48000, 32000][rateIndex]
    let sampleRate = version == 1 ? base : version == 2 ? base / 2 : base / 4
    let bitrate = version == 1 ? bitratesV1[bitrateIndex] : bitratesV2[bitrateIndex]
    return FrameHeader(version: version, sampleRate: sampleRate, bitrateKbps: bitrate,
                       padding: (b[2] >> 1) & 1 == 1, mono: b[3] >> 6 == 3)
  }

  /// The offset after any ID3v2 tags at `start`, or `start` itself when there is none.
  static func skipID3v2(_ r: ByteReader, from start: Int) throws(MediaParseError) -> Int {
    var pos = start
    var tags = 0
    while r.has(10, at: pos), try r.matches("ID3", at: pos) {
      tags += 1
      guard tags <= 16 else { throw .corrupt("MP3 has more than 16 ID3v2 tags in a row") }
      let h = try r.bytes(pos, 10)
      guard h[3] >= 2, h[3] <= 4, h[4] != 0xFF else {
        throw .corrupt("MP3 ID3v2 tag at offset \(pos) has an unknown version 2.\(h[3]).\(h[4])")
      }
      guard h[6] < 0x80, h[7] < 0x80, h[8] < 0x80, h[9] < 0x80 else {
        throw .corrupt("MP3 ID3v2 tag at offset \(pos) has a malformed size")
      }
      let size = Int(h[6]) << 21 | Int(h[7]) << 14 | Int(h[8]) << 7 | Int(h[9])
      let footer = h[3] == 4 && h[5] & 0x10 != 0 ? 10 : 0
      let end = pos + 10 + size + footer
      guard end <= r.count else {
        throw .corrupt("MP3 ID3v2 tag at offset \(pos) declares \(size) bytes, past the end of the file (size \(r.count))")
      }
      pos = end
    }
    return pos
  }

  /// True when the bytes at `pos` start two consecutive Layer III frames of one stream.
  static func looksLikeFrames(_ r: ByteReader, at pos: Int) throws(MediaParseError) -> Bool {
    guard r.has(4, at: pos), let first = header(try r.bytes(pos, 4)) else { return false }
    let next = pos + first.length
    guard r.has(4, at: next), let second = header(try r.bytes(next, 4)) else { return false }
    return first.sameStream(second)
  }

  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "MP3"
    let tagged = try r.matches("ID3", at: 0)
    var pos = try skipID3v2(r, from: 0)
    // Some taggers leave zero padding that their size does not count.
    var zeros = 0
    while pos < r.count, try r.u8(pos) == 0 {
      pos += 1
      zeros += 1
      guard zeros <= ParseLimits.window else { break }
    }
    guard r.has(4, at: pos), let first = header(try r.bytes(pos, 4)) else {
      throw .unrecognized(tagged ? "the ID3 tag is not followed by an MP3 frame" : "no MP3 frame header")
    }
    if !tagged, !(try looksLikeFrames(r, at: pos)) {
      throw .unrecognized("fewer than two consecutive MP3 frame headers")
    }
    var frames = 0
    var samples = 0
    while pos < r.count {
      guard frames < ParseLimits.maxElements else { throw .corrupt("MP3 has more than \(ParseLimits.maxElements) frames") }
      guard r.has(4, at: pos), let h = header(try r.bytes(pos, 4)), h.sameStream(first) else {
        if try isTrailingTag(r, at: pos) { break }
        throw .corrupt("MP3 has bytes that are not a frame header at offset \(pos) (after \(frames) frames)")
      }
      let length = h.length
      guard length >= 4 else { throw .corrupt("MP3 frame at offset \(pos) is too short") }
      guard pos + length <= r.count else {
        throw .corrupt("MP3 frame at offset \(pos) needs \(length) bytes, \(r.count - pos) are left (truncated?)")
      }
      if frames == 0, try isInfoFrame(r, at: pos, header: h) {
        // The Xing/Info/VBRI frame carries no audio.
      } else {
        samples += h.samples
      }
      frames += 1
      pos += length
    }
    guard frames >= 2 else { throw .corrupt("MP3 has \(frames) frame; at least 2 are needed") }
    return MediaFacts(type: .mp3, bytes: UInt64(r.count), durationSeconds: Double(samples) / Double(first.sampleRate))
  }

  private static func isInfoFrame(_ r: ByteReader, at pos: Int, header h: FrameHeader) throws(MediaParseError) -> Bool {
    let xing = pos + h.sideInfoEnd
    if r.has(4, at: xing) {
      let tag = try r.bytes(xing, 4)
      if tag == Array("Xing".utf8) || tag == Array("Info".utf8) { return true }
    }
    return try r.matches("VBRI", at: pos + 36)
  }

  /// ID3v1 ("TAG", 128 bytes), APEv2, Lyrics3 or an appended ID3v2 tag after the last frame.
  private static func isTrailingTag(_ r: ByteReader, at pos: Int) throws(MediaParseError) -> Bool {
    let left = r.count - pos
    if left == 128, try r.bytes(pos, 3) == Array("TAG".utf8) { return true }
    if left >= 8 {
      let head = try r.bytes(pos, 8)
      if head == Array("APETAGEX".utf8) || head == Array("LYRICSBE".utf8) { return true }
      if Array(head[0..<3]) == Array("ID3".utf8) { return true }
    }
    return false
  }
}
