/// Trimming and fixed-point numbers as Foundation's `trimmingCharacters(in:)` and
/// `String(format: "%.Nf")` give them, without Foundation: neither is in FoundationEssentials,
/// and the CLI links only FoundationEssentials (its start-up cost; see Package.swift).
extension StringProtocol {
  /// Without leading and trailing `CharacterSet.whitespaces` (tab, the space separators, U+200B).
  public func trimmingWhitespace() -> String {
    trimmingScalars(where: PlainText.isWhitespace)
  }

  /// Without leading and trailing `CharacterSet.whitespacesAndNewlines` (also U+000A–U+000D,
  /// U+0085, U+2028 and U+2029).
  public func trimmingWhitespaceAndNewlines() -> String {
    trimmingScalars { PlainText.isWhitespace($0) || PlainText.isNewline($0) }
  }

  private func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
    let text = String(self)
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !trimmed($0) }),
          let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
    return String(Substring(scalars[first...last]))
  }
}

public enum PlainText {
  /// A member of `CharacterSet.whitespaces` as Foundation on Linux has it: tab, the space
  /// separators (Zs) and U+200B ZERO WIDTH SPACE (CoreFoundation's set has it).
  public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
  }

  /// A member of `CharacterSet.newlines`.
  public static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// `value` with `digits` decimals (0–9), as C's `printf("%.*f")` prints it: the exact binary
  /// value rounded half to even, a minus sign whenever the sign bit is set (`-0.0`). Values of
  /// 2^64 and more, and non-finite ones, are printed as Swift prints them.
  public static func fixed(_ value: Double, digits: Int) -> String {
    let digits = min(max(digits, 0), 9)
    let magnitude = value.magnitude
    guard value.isFinite, magnitude < 0x1p64 else { return "\(value)" }
    var power: UInt128 = 1
    for _ in 0..<digits { power *= 10 }
    // magnitude = significand * 2^exponent, exactly.
    let significand = UInt128(magnitude.significandBitPattern) | (magnitude.isNormal ? 1 << 52 : 0)
    let exponent = magnitude.isNormal ? Int(magnitude.exponent) - 52 : -1074
    let whole = significand * power                        // < 2^53 * 10^9 < 2^83
    var scaled: UInt128
    if exponent >= 0 {
      scaled = whole << exponent                           // magnitude < 2^64: exponent <= 11
    } else if -exponent >= 127 {
      scaled = 0                                           // whole < 2^83: less than half of one unit
    } else {
      let shift = -exponent
      scaled = whole >> shift
      let rest = whole & ((1 << shift) - 1), half: UInt128 = 1 << (shift - 1)
      if rest > half || (rest == half && scaled & 1 == 1) { scaled += 1 }
    }
    var text = value.sign == .minus ? "-" : ""
    text += String(scaled / power)
    if digits > 0 {
      let fraction = String(scaled % power)
      text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
  }
}
