/// Writes JSON text (RFC 8259) byte for byte as FoundationEssentials' `JSONEncoder` writes the
/// same values (compact, no spaces), without Foundation: the presenter command's payload and
/// the store's JSON records.
///
/// Strings: `"` and `\` escaped, `\b \f \n \r \t` for those controls and `\u00xx` (lowercase
/// hex) for the other C0 controls; everything else, DEL and U+2028/U+2029 included, is written
/// as UTF-8. `/` is escaped as `\/` only when asked (`JSONEncoder`'s default escapes it;
/// `.withoutEscapingSlashes` does not). Object members are written in the order given: a
/// caller that wants `.sortedKeys` output gives them sorted.
public enum JSONWriter {
  public indirect enum Value: Hashable, Sendable {
    case object([Member])
    case array([Value])
    case string(String)
    case integer(Int64)
    /// Written as Swift's `description` prints it, without a trailing `.0` (`1.0` is `1`,
    /// `0.5` is `0.5`, `1e+20` is `1e+20`). JSON has no NaN or infinity: those are `null`.
    case double(Double)
    case bool(Bool)
    case null
  }

  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: Value
    public init(_ key: String, _ value: Value) {
      self.key = key
      self.value = value
    }
  }

  /// `value` as compact JSON text.
  public static func text(_ value: Value, escapingSlashes: Bool = false) -> String {
    var out: [UInt8] = []
    write(value, to: &out, escapingSlashes: escapingSlashes)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `value` as compact JSON to `out`.
  public static func write(_ value: Value, to out: inout [UInt8], escapingSlashes: Bool = false) {
    switch value {
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, member) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeString(member.key, to: &out, escapingSlashes: escapingSlashes)
        out.append(UInt8(ascii: ":"))
        write(member.value, to: &out, escapingSlashes: escapingSlashes)
      }
      out.append(UInt8(ascii: "}"))
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        write(element, to: &out, escapingSlashes: escapingSlashes)
      }
      out.append(UInt8(ascii: "]"))
    case .string(let text):
      writeString(text, to: &out, escapingSlashes: escapingSlashes)
    case .integer(let number):
      out += String(number).utf8
    case .double(let number):
      guard number.isFinite else {
        out += "null".utf8
        return
      }
      var text = number.description
      if text.hasSuffix(".0") { text.removeLast(2) }
      out += text.utf8
    case .bool(let flag):
      out += (flag ? "true" : "false").utf8
    case .null:
      out += "null".utf8
    }
  }

  /// `text` as a JSON string, quotes included.
  public static func writeString(_ text: String, to out: inout [UInt8], escapingSlashes: Bool = false) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "/") where escapingSlashes: out += [UInt8(ascii: "\\"), UInt8(ascii: "/")]
      case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
