/// RFC 4648 base64 (standard alphabet, `=` padding): how a request record travels inside an
/// iCalendar property (X-CHIME-REQUEST) and between `chime` and `chime-calendar`.
public enum Base64Text {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  public static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let b0 = bytes[i], b1 = i + 1 < bytes.count ? bytes[i + 1] : 0, b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
      out.append(alphabet[Int(b0 >> 2)])
      out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
      out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
      out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of `text`, or nil when it is not padded base64 (whitespace is not allowed).
  public static func decode(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count % 4 == 0 else { return nil }
    func value(_ c: UInt8) -> UInt8? {
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
      case UInt8(ascii: "+"): 62
      case UInt8(ascii: "/"): 63
      default: nil
      }
    }
    var out: [UInt8] = []
    out.reserveCapacity(chars.count / 4 * 3)
    var i = 0
    while i < chars.count {
      let last = i + 4 == chars.count
      let pad = last ? (chars[i + 3] == UInt8(ascii: "=") ? (chars[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
      guard let v0 = value(chars[i]), let v1 = value(chars[i + 1]) else { return nil }
      let v2 = pad >= 2 ? 0 : value(chars[i + 2])
      let v3 = pad >= 1 ? 0 : value(chars[i + 3])
      guard let v2, let v3 else { return nil }
      out.append(v0 << 2 | v1 >> 4)
      if pad < 2 { out.append((v1 & 0x0F) << 4 | v2 >> 2) }
      if pad < 1 { out.append((v2 & 0x03) << 6 | v3) }
      i += 4
    }
    return out
  }
}
