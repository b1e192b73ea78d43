/// Random (version 4) UUIDs as Chime names things with them: lowercase `8-4-4-4-12` hex, e.g.
/// `3f2b8c1e-9a4d-4e7b-8c21-5d6f0a1b2c3d` (attachment files and identifiers, pushed requests).
public enum RandomUUID {
  /// A new UUID: 122 random bits from the standard library's system generator (getrandom(2) on
  /// Linux), with the version (4) and variant (RFC 4122) bits set.
  public static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    return text(bytes(using: &generator))
  }

  /// 16 bytes from `generator` with the version and variant bits set.
  static func bytes<G: RandomNumberGenerator>(using generator: inout G) -> [UInt8] {
    let high = generator.next() as UInt64, low = generator.next() as UInt64
    var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    return bytes
  }

  /// The 16 bytes as lowercase `8-4-4-4-12` hex.
  static func text(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(36)
    for (i, byte) in bytes.enumerated() {
      if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
