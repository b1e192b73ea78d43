/// Byte building and patching for the media and sound tests (a namespace, so the helpers
/// cannot clash with other test code).
public enum MediaBytes {
  public static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
  public static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
  public static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
  public static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }
  public static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

  public static func readBE32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
  }

  public static func readLE32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at + 3]) << 24 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 1]) << 8 | UInt32(b[at])
  }

  /// A copy of `b` with the bytes at `offset` replaced.
  public static func patch(_ b: [UInt8], at offset: Int, _ bytes: [UInt8]) -> [UInt8] {
    var copy = b
    copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    return copy
  }

  /// Offset of the first occurrence of `needle` (ASCII) at or after `start`.
  public static func find(_ needle: String, in b: [UInt8], from start: Int = 0) -> Int? {
    let n = Array(needle.utf8)
    guard n.count <= b.count, start <= b.count - n.count else { return nil }
    for i in start...(b.count - n.count) where b[i] == n[0] && Array(b[i..<(i + n.count)]) == n {
      return i
    }
    return nil
  }

  /// Bitwise CRC-32 (independent of the one under test), for building PNG chunks.
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      c ^= UInt32(b)
      for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~c
  }

  public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    be32(UInt32(data.count)) + ascii(type) + data + be32(crc32(ascii(type) + data))
  }

  /// IEEE 754 80-bit extended encoding of a positive finite `Double` (AIFF sample rates).
  public static func extended80(_ x: Double) -> [UInt8] {
    let exponent = UInt16(Int(x.exponent) + 16383)
    let mantissa = UInt64(x.significand * 9_223_372_036_854_775_808.0)  // × 2^63
    return be16(exponent) + be64(mantissa)
  }
}
