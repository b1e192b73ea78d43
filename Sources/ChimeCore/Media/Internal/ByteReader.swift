/// Bounds-checked, windowed reads over a `ByteSource` for the parsers. Every read names the
/// format so a short file gives a useful message; reads are served from a 64 KiB window so a
/// walk of many small structures costs few source reads.
final class ByteReader {
  let source: any ByteSource
  let count: Int
  /// Format name for messages, e.g. "PNG".
  var format: String

  private var window: [UInt8] = []
  private var windowStart = 0

  init(_ source: any ByteSource, format: String = "file") {
    self.source = source
    self.count = max(0, source.count)
    self.format = format
  }

  /// True when `n` bytes starting at `offset` lie inside the file.
  func has(_ n: Int, at offset: Int) -> Bool {
    offset >= 0 && n >= 0 && offset <= count && n <= count - offset
  }

  /// Bytes left from `offset` to the end (0 when past it).
  func remaining(from offset: Int) -> Int {
    offset >= 0 && offset < count ? count - offset : 0
  }

  func bytes(_ offset: Int, _ n: Int) throws(MediaParseError) -> [UInt8] {
    guard has(n, at: offset) else {
      throw .corrupt("\(format) ends early: \(n) bytes needed at offset \(offset), the file has \(count)")
    }
    if n == 0 { return [] }
    if offset >= windowStart, offset - windowStart <= window.count, n <= window.count - (offset - windowStart) {
      let start = offset - windowStart
      return Array(window[start..<(start + n)])
    }
    if n > ParseLimits.window {
      return try raw(offset, n)
    }
    let length = min(ParseLimits.window, count - offset)
    window = try raw(offset, length)
    windowStart = offset
    return Array(window[0..<n])
  }

  private func raw(_ offset: Int, _ n: Int) throws(MediaParseError) -> [UInt8] {
    let got: [UInt8]
    do throws(ChimeError) {
      got = try source.read(at: offset, count: n)
    } catch {
      throw .io(error)
    }
    guard got.count == n else {
      throw .io(.mediaReadFailed("short read: \(got.count) of \(n) bytes at offset \(offset)"))
    }
    return got
  }

  /// True when the file has `magic` (ASCII) at `offset`; false when it differs or is too short.
  func matches(_ magic: String, at offset: Int) throws(MediaParseError) -> Bool {
    let m = Array(magic.utf8)
    guard has(m.count, at: offset) else { return false }
    return try bytes(offset, m.count) == m
  }

  func u8(_ offset: Int) throws(MediaParseError) -> UInt8 {
    try bytes(offset, 1)[0]
  }

  func u16be(_ offset: Int) throws(MediaParseError) -> UInt16 {
    let b = try bytes(offset, 2)
    return UInt16(b[0]) << 8 | UInt16(b[1])
  }

  func u16le(_ offset: Int) throws(MediaParseError) -> UInt16 {
    let b = try bytes(offset, 2)
    return UInt16(b[1]) << 8 | UInt16(b[0])
  }

  func u32be(_ offset: Int) throws(MediaParseError) -> UInt32 {
    Bytes.u32be(try bytes(offset, 4), 0)
  }

  func u32le(_ offset: Int) throws(MediaParseError) -> UInt32 {
    Bytes.u32le(try bytes(offset, 4), 0)
  }

  func u64be(_ offset: Int) throws(MediaParseError) -> UInt64 {
    Bytes.u64be(try bytes(offset, 8), 0)
  }

  /// Calls `body` with consecutive pieces (at most one window each) of `offset..<offset+n`.
  func forEachPiece(_ offset: Int, _ n: Int, _ body: ([UInt8]) -> Void) throws(MediaParseError) {
    guard has(n, at: offset) else {
      throw .corrupt("\(format) ends early: \(n) bytes needed at offset \(offset), the file has \(count)")
    }
    var at = offset
    let end = offset + n
    while at < end {
      let piece = min(ParseLimits.window, end - at)
      body(try bytes(at, piece))
      at += piece
    }
  }
}

/// Integer decoding from byte arrays already read (callers have checked the length).
enum Bytes {
  static func u16be(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }
  static func u16le(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i + 1]) << 8 | UInt16(b[i]) }
  static func u32be(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }
  static func u32le(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i + 3]) << 24 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])
  }
  static func u64be(_ b: [UInt8], _ i: Int) -> UInt64 {
    UInt64(u32be(b, i)) << 32 | UInt64(u32be(b, i + 4))
  }
  static func u64le(_ b: [UInt8], _ i: Int) -> UInt64 {
    UInt64(u32le(b, i + 4)) << 32 | UInt64(u32le(b, i))
  }
}
