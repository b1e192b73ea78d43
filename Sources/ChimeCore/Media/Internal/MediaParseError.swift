/// What a container parser found wrong. The public inspectors turn it into a `ChimeError` with
/// their own reasons (`ATTACHMENT_*` or `SOUND_*`).
enum MediaParseError: Error {
  /// The bytes are of the format but broken: truncated, inconsistent, out of range.
  case corrupt(String)
  /// The bytes are not (or not only) what this parser handles.
  case unrecognized(String)
  /// The source itself failed (I/O error, file changed size while being read).
  case io(ChimeError)
}

/// Hard caps on every loop, so a hostile file costs bounded time and memory however it is built.
/// Each is far above what a legitimate file within the size limits needs.
enum ParseLimits {
  /// Chunks, boxes, segments, blocks or packets walked in one file.
  static let maxElements = 1 << 22
  /// Nesting depth of ISO-BMFF boxes.
  static let maxDepth = 12
  /// Bytes read in one go; larger ranges are walked in windows of this size.
  static let window = 64 * 1024
}

/// Offset and size arithmetic that cannot trap.
extension Int {
  func adding(_ other: Int, _ what: @autoclosure () -> String) throws(MediaParseError) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    guard !overflow else { throw .corrupt("\(what()): size overflows") }
    return sum
  }

  func times(_ other: Int, _ what: @autoclosure () -> String) throws(MediaParseError) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    guard !overflow else { throw .corrupt("\(what()): size overflows") }
    return product
  }
}

func hex(_ value: some BinaryInteger, width: Int = 2) -> String {
  var s = String(value, radix: 16, uppercase: true)
  while s.count < width { s = "0" + s }
  return "0x" + s
}

/// A four-character code as text: printable ASCII as is, anything else as hex.
func fourCCString(_ value: UInt32) -> String {
  let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
    return String(decoding: bytes, as: UTF8.self)
  }
  return hex(value, width: 8)
}

func fourCC(_ text: StaticString) -> UInt32 {
  precondition(text.utf8CodeUnitCount == 4, "a four-character code has four characters")
  let p = text.utf8Start
  return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
}
