/// Whitespace, comments, newlines; and where an error is, in lines and columns.
extension TOMLParser {
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  func startsWith(_ text: String) -> Bool {
    var offset = index
    for byte in text.utf8 {
      guard offset < bytes.count, bytes[offset] == byte else { return false }
      offset += 1
    }
    return true
  }

  mutating func skipWhitespace() {
    while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
  }

  /// Whitespace, comments and newlines (inside an array).
  mutating func skipBlankLines() throws(TOMLError) {
    while true {
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: "#"): try comment()
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"): try newline()
      default: return
      }
    }
  }

  func isNewline(at offset: Int) -> Bool {
    byte(at: offset) == UInt8(ascii: "\n") || (byte(at: offset) == UInt8(ascii: "\r") && byte(at: offset + 1) == UInt8(ascii: "\n"))
  }

  /// LF or CRLF; a carriage return alone is refused.
  mutating func newline() throws(TOMLError) {
    if peek() == UInt8(ascii: "\n") {
      index += 1
    } else if isNewline(at: index) {
      index += 2
    } else {
      throw error("a carriage return must be followed by a newline")
    }
  }

  /// `# ...` up to the end of the line (not included). Tab is the only control character a
  /// comment may hold.
  mutating func comment() throws(TOMLError) {
    index += 1
    while let byte = peek(), byte != UInt8(ascii: "\n") {
      if byte == UInt8(ascii: "\r"), self.byte(at: index + 1) == UInt8(ascii: "\n") { return }
      if Self.isControl(byte) { throw error("control character \(found()) in a comment") }
      index += 1
    }
  }

  /// A control character no comment or string may hold as it is: U+0000–U+001F but tab, and
  /// U+007F.
  static func isControl(_ byte: UInt8) -> Bool {
    (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
  }

  func dotted<Keys: Sequence<String>>(_ keys: Keys) -> String {
    keys.map { key in
      !key.isEmpty && key.utf8.allSatisfy(Self.isBareKeyByte) ? key : "\"\(key)\""
    }.joined(separator: ".")
  }

  func article(_ typeName: String) -> String {
    (typeName.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + typeName
  }

  /// What is at the current position, for an error: a character, the end of the line or file.
  func found() -> String { found(at: index) }

  func found(at index: Int) -> String {
    guard let byte = self.byte(at: index) else { return "the end of the file" }
    if byte == UInt8(ascii: "\n") || isNewline(at: index) { return "the end of the line" }
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let scalar = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first!
    var hex = String(scalar.value, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    return byte == UInt8(ascii: " ") ? "a space" : "U+\(hex)"
  }

  func error(_ message: String) -> TOMLError { error(at: index, key: nil, message) }

  func error(at offset: Int, key: String? = nil, _ message: String) -> TOMLError {
    var line = 1, lineStart = 0
    for position in 0..<min(offset, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
      line += 1
      lineStart = position + 1
    }
    let column = bytes[lineStart..<min(offset, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return TOMLError(line: line, column: column, key: key, message: message)
  }

  /// The 1-based line of `offset`, counted on from the last call (offsets only grow).
  mutating func lineNumber(at offset: Int) -> Int {
    if offset < lineScanned {
      lineScanned = 0
      linesBefore = 1
    }
    for position in lineScanned..<offset where bytes[position] == UInt8(ascii: "\n") { linesBefore += 1 }
    lineScanned = offset
    return linesBefore
  }
}
