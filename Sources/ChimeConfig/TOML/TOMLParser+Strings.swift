/// TOML's four kinds of string: basic ("..." with escapes), literal ('...' as written) and the
/// multi-line form of each.
extension TOMLParser {
  /// `"..."` on one line, with escapes.
  mutating func basicString() throws(TOMLError) -> String {
    let start = index
    index += 1
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error(at: start, "unterminated string (no closing '\"')") }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try escape(into: &text)
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        throw error(at: start, "unterminated string (no closing '\"' on its line; use \"\"\" for a multi-line string)")
      default:
        if Self.isControl(byte) { throw error("control character \(found()) in a string: write it as an escape") }
        text.append(byte)
        index += 1
      }
    }
  }

  /// `'...'` on one line, as written.
  mutating func literalString() throws(TOMLError) -> String {
    let start = index
    index += 1
    let first = index
    while true {
      guard let byte = peek() else { throw error(at: start, "unterminated string (no closing \"'\")") }
      switch byte {
      case UInt8(ascii: "'"):
        index += 1
        return String(decoding: bytes[first..<(index - 1)], as: UTF8.self)
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        throw error(at: start, "unterminated string (no closing \"'\" on its line; use ''' for a multi-line string)")
      default:
        if Self.isControl(byte) { throw error("control character \(found()) in a literal string") }
        index += 1
      }
    }
  }

  /// `"""..."""`: a newline right after the opening quotes is dropped, a backslash at the end
  /// of a line drops that newline and the whitespace after it; up to two quotes may stand
  /// just before the closing three.
  mutating func multilineBasicString() throws(TOMLError) -> String {
    try multiline(quote: UInt8(ascii: "\""), escapes: true)
  }

  /// `'''...'''`: as written, but for a newline right after the opening quotes.
  mutating func multilineLiteralString() throws(TOMLError) -> String {
    try multiline(quote: UInt8(ascii: "'"), escapes: false)
  }

  private mutating func multiline(quote: UInt8, escapes: Bool) throws(TOMLError) -> String {
    let start = index
    index += 3
    if isNewline(at: index) { try newline() }
    var text: [UInt8] = []
    while true {
      guard let byte = peek() else {
        throw error(at: start, "unterminated multi-line string (no closing \(String(repeating: Character(Unicode.Scalar(quote)), count: 3)))")
      }
      switch byte {
      case quote:
        var run = 0
        while self.byte(at: index + run) == quote && run < 5 { run += 1 }
        if run >= 3 {
          // The last three close the string; up to two before them belong to it.
          text.append(contentsOf: repeatElement(quote, count: run - 3))
          index += run
          return String(decoding: text, as: UTF8.self)
        }
        text.append(contentsOf: repeatElement(quote, count: run))
        index += run
      case UInt8(ascii: "\\") where escapes:
        if try !lineEndingBackslash() { try escape(into: &text) }
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        // CRLF is kept as LF, as TOML allows.
        try newline()
        text.append(UInt8(ascii: "\n"))
      default:
        if Self.isControl(byte) { throw error("control character \(found()) in a string: write it as an escape") }
        text.append(byte)
        index += 1
      }
    }
  }

  /// A backslash that ends its line (spaces may follow it): skips it, the newline and all
  /// whitespace and newlines after; false (nothing skipped) for any other backslash.
  private mutating func lineEndingBackslash() throws(TOMLError) -> Bool {
    var offset = index + 1
    while byte(at: offset) == UInt8(ascii: " ") || byte(at: offset) == UInt8(ascii: "\t") { offset += 1 }
    guard isNewline(at: offset) else { return false }
    index = offset
    while true {
      skipWhitespace()
      guard isNewline(at: index) else { return true }
      try newline()
    }
  }

  /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, appended as UTF-8.
  private mutating func escape(into text: inout [UInt8]) throws(TOMLError) {
    let start = index
    index += 1
    guard let byte = peek() else { throw error(at: start, "unterminated string (a backslash at the end of the file)") }
    index += 1
    switch byte {
    case UInt8(ascii: "b"): text.append(0x08)
    case UInt8(ascii: "t"): text.append(0x09)
    case UInt8(ascii: "n"): text.append(0x0A)
    case UInt8(ascii: "f"): text.append(0x0C)
    case UInt8(ascii: "r"): text.append(0x0D)
    case UInt8(ascii: "\""): text.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): text.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      let count = byte == UInt8(ascii: "u") ? 4 : 8
      var value: UInt32 = 0
      for _ in 0..<count {
        guard let digit = peek().flatMap(Self.hexDigit) else {
          throw error(at: start, "\\\(Character(Unicode.Scalar(byte))) takes exactly \(count) hexadecimal digits")
        }
        value = value << 4 | UInt32(digit)
        index += 1
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw error(at: start, "\\\(Character(Unicode.Scalar(byte))) names no Unicode scalar value (a surrogate or past U+10FFFF)")
      }
      text.append(contentsOf: String(Character(scalar)).utf8)
    default:
      let shown = byte >= 0x21 && byte < 0x7F ? "\\\(Character(Unicode.Scalar(byte)))" : "(a backslash before \(found(at: index - 1)))"
      throw error(at: start, "invalid escape sequence \(shown) (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)")
    }
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
