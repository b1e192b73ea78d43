/// Values: strings (TOMLParser+Strings), numbers and dates (TOMLParser+Numbers), booleans,
/// arrays and inline tables.
extension TOMLParser {
  mutating func value() throws(TOMLError) -> TOMLValue {
    guard let byte = peek() else { throw error("expected a value, found the end of the file") }
    switch byte {
    case UInt8(ascii: "\""):
      return .string(startsWith("\"\"\"") ? try multilineBasicString() : try basicString())
    case UInt8(ascii: "'"):
      return .string(startsWith("'''") ? try multilineLiteralString() : try literalString())
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      for (word, value) in [("true", true), ("false", false)] where startsWith(word) {
        index += word.utf8.count
        return .boolean(value)
      }
      throw error("expected a value, found \(found()) (true and false are lower case; strings are quoted)")
    case UInt8(ascii: "["):
      return try array()
    case UInt8(ascii: "{"):
      return try inlineTable()
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "i"), UInt8(ascii: "n"):
      return try numberOrDate()
    default:
      throw error("expected a value, found \(found())")
    }
  }

  mutating func array() throws(TOMLError) -> TOMLValue {
    let start = index
    index += 1
    try enterNesting()
    defer { depth -= 1 }
    var items: [TOMLValue] = []
    while true {
      try skipBlankLines()
      guard let byte = peek() else { throw error(at: start, "unterminated array (no ']' before the end of the file)") }
      if byte == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      items.append(try value())
      try skipBlankLines()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(items)
      case nil: throw error(at: start, "unterminated array (no ']' before the end of the file)")
      default: throw error("expected ',' or ']' in the array, found \(found())")
      }
    }
  }

  mutating func inlineTable() throws(TOMLError) -> TOMLValue {
    index += 1
    try enterNesting()
    defer { depth -= 1 }
    scope += 1
    let own = scope
    let table = TOMLNode(.header)
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .table(table.table)
    }
    while true {
      skipWhitespace()
      try inlineTableMisfit()
      try keyValue(into: table, scope: own, path: [])
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { throw error("an inline table cannot end with a comma") }
      case UInt8(ascii: "}"):
        index += 1
        return .table(table.table)
      default:
        try inlineTableMisfit()
        throw error("expected ',' or '}' in the inline table, found \(found())")
      }
    }
  }

  /// What an inline table may not hold: a newline, a comment, the end of the file.
  func inlineTableMisfit() throws(TOMLError) {
    switch peek() {
    case nil: throw error("unterminated inline table (no '}' before the end of the file)")
    case UInt8(ascii: "\n"), UInt8(ascii: "\r"): throw error("an inline table must be on one line (no newline before its '}')")
    case UInt8(ascii: "#"): throw error("an inline table cannot hold a comment")
    default: return
    }
  }

  mutating func enterNesting() throws(TOMLError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("arrays and inline tables nested more than \(Self.maximumDepth) deep") }
  }
}
