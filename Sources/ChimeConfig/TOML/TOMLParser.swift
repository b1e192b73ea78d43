/// A TOML 1.0 reader (https://toml.io/en/v1.0.0): every valid document is read, every invalid
/// one refused with the line, the column and what is wrong. Works on the text's UTF-8 bytes.
///
/// Chime reads chimed.toml with it; its values are a few top-level scalars, but the whole
/// language is read so that a value of the wrong kind is named as what it is.
public struct TOMLParser {
  /// Deeper nesting of arrays and inline tables is refused, as are tables more keys deep (no
  /// stack runs out on a hostile file).
  static let maximumDepth = 128

  let bytes: [UInt8]
  var index = 0
  /// The tables of the document, and the one the last header opened.
  let root = TOMLNode(.header)
  var current: TOMLNode
  /// Numbers each section (after each header) and each inline table: a table made by dotted
  /// keys takes more dotted keys only within the scope that made it.
  var scope = 0
  /// The scope of the section being read (0: before the first header).
  var section = 0
  /// The keys of the last header, to name a key in an error in full.
  var sectionPath: [String] = []
  var depth = 0
  /// The keys above the value being read: the section's and those of the key/value pairs whose
  /// inline tables enclose it. Keys, as arrays and inline tables, make tables within tables,
  /// which building and comparing the finished tables recurse through.
  var keyDepth = 0
  /// Lines counted up to `lineScanned` (for the line of each key, found as the text is read).
  var lineScanned = 0
  var linesBefore = 1

  /// Parses a whole document. A byte order mark at its start is skipped, as editors on Windows
  /// write one (anywhere else it is refused).
  ///
  /// - Throws: `TOMLError` at the first thing that is not valid TOML.
  public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
    var parser = TOMLParser(bytes: Array(text.utf8.trimmingPrefix([0xEF, 0xBB, 0xBF])))
    try parser.document()
    return parser.root.table
  }

  init(bytes: [UInt8]) {
    self.bytes = bytes
    current = root
  }

  // MARK: The document

  mutating func document() throws(TOMLError) {
    while true {
      skipWhitespace()
      guard let byte = peek() else { return }
      switch byte {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        try newline()
        continue
      case UInt8(ascii: "#"):
        try comment()
      case UInt8(ascii: "["):
        try tableHeader()
      default:
        try keyValue(into: current, scope: section, path: sectionPath)
      }
      try endOfLine()
    }
  }

  /// After a key/value pair or a header: spaces, perhaps a comment, then a newline or the end.
  mutating func endOfLine() throws(TOMLError) {
    skipWhitespace()
    if peek() == UInt8(ascii: "#") { try comment() }
    guard peek() != nil else { return }
    guard isNewline(at: index) else {
      throw error("expected the end of the line, found \(found())")
    }
    try newline()
  }

  // MARK: Tables

  /// `[a.b]` or `[[a.b]]`.
  mutating func tableHeader() throws(TOMLError) {
    let start = index
    let line = lineNumber(at: start)
    let isArray = byte(at: index + 1) == UInt8(ascii: "[")
    index += isArray ? 2 : 1
    skipWhitespace()
    let keys = try key()
    try checkKeyDepth(keys.count, at: start)
    guard peek() == UInt8(ascii: "]") else { throw error("expected ']' to close the table header, found \(found())") }
    index += 1
    if isArray {
      guard peek() == UInt8(ascii: "]") else { throw error("expected ']]' to close the array-of-tables header, found \(found())") }
      index += 1
    }
    scope += 1
    section = scope
    sectionPath = keys
    var node = root
    for (depth, key) in keys.dropLast().enumerated() {
      switch node[key] {
      case nil:
        let table = TOMLNode(.implicit)
        node.set(key, .table(table, line: line))
        node = table
      case .table(let table, _):
        node = table
      case .arrayOfTables(let tables, _):
        node = tables.nodes[tables.nodes.count - 1]
      case let other?:
        throw error(at: start, key: dotted(keys.prefix(depth + 1)),
                    "is \(article(other.typeName)) (line \(other.line)): a header cannot add to it")
      }
    }
    let last = keys[keys.count - 1]
    let name = dotted(keys)
    if isArray {
      let table = TOMLNode(.header)
      switch node[last] {
      case nil:
        node.set(last, .arrayOfTables(TOMLNodeList([table]), line: line))
      case .arrayOfTables(let tables, _):
        tables.nodes.append(table)
      case let other?:
        throw error(at: start, key: name, "is \(article(other.typeName)) (line \(other.line)), not an array of tables: [[\(name)]] cannot add to it")
      }
      current = table
      return
    }
    switch node[last] {
    case nil:
      let table = TOMLNode(.header)
      node.set(last, .table(table, line: line))
      current = table
    case .table(let table, let firstLine):
      switch table.origin {
      case .implicit:
        table.origin = .header
        current = table
      case .header:
        throw error(at: start, key: name, "table defined twice (first on line \(firstLine))")
      case .dotted:
        throw error(at: start, key: name, "table already defined by dotted keys (line \(firstLine)): a header cannot define it again")
      }
    case let other?:
      throw error(at: start, key: name, "is \(article(other.typeName)) (line \(other.line)): [\(name)] cannot define it")
    }
  }

  /// `key = value` (the key perhaps dotted), added to `table`.
  /// `path`: where `table` is, to name keys in errors (empty in an inline table: its keys are
  /// named from there).
  mutating func keyValue(into table: TOMLNode, scope: Int, path: [String]) throws(TOMLError) {
    let start = index
    let line = lineNumber(at: start)
    let relative = try key()
    let keys = path + relative
    try checkKeyDepth(keys.count, at: start)
    guard peek() == UInt8(ascii: "=") else {
      throw error("expected '=' after the key \(dotted(relative)), found \(found())")
    }
    index += 1
    skipWhitespace()
    keyDepth += keys.count
    defer { keyDepth -= keys.count }
    let value = try self.value()
    var node = table
    for (depth, key) in relative.dropLast().enumerated() {
      switch node[key] {
      case nil:
        let made = TOMLNode(.dotted(scope: scope))
        node.set(key, .table(made, line: line))
        node = made
      case .table(let existing, let firstLine):
        switch existing.origin {
        case .implicit:
          existing.origin = .dotted(scope: scope)
        case .dotted(let made) where made == scope:
          break
        case .header, .dotted:
          throw error(at: start, key: dotted(keys.prefix(path.count + depth + 1)),
                      "table already defined (line \(firstLine)): a dotted key cannot add to it here")
        }
        node = existing
      case let other?:
        throw error(at: start, key: dotted(keys.prefix(path.count + depth + 1)),
                    "is \(article(other.typeName)) (line \(other.line)): a dotted key cannot add to it")
      }
    }
    let last = relative[relative.count - 1]
    if let existing = node[last] {
      throw error(at: start, key: dotted(keys), "duplicate key (first on line \(existing.line))")
    }
    node.set(last, .value(value, line: line))
  }

  /// Deeper tables than `maximumDepth` keys down are refused, as deeper arrays and inline tables
  /// are (no stack runs out on a hostile file: `[a.a.a...]`).
  func checkKeyDepth(_ count: Int, at start: Int) throws(TOMLError) {
    guard keyDepth + count > Self.maximumDepth else { return }
    throw error(at: start, "tables nested more than \(Self.maximumDepth) keys deep")
  }

  /// A key: bare, quoted or dotted; the whitespace after it is skipped.
  mutating func key() throws(TOMLError) -> [String] {
    var keys = [try simpleKey()]
    skipWhitespace()
    while peek() == UInt8(ascii: ".") {
      index += 1
      skipWhitespace()
      keys.append(try simpleKey())
      skipWhitespace()
    }
    return keys
  }

  mutating func simpleKey() throws(TOMLError) -> String {
    switch peek() {
    case UInt8(ascii: "\""):
      if startsWith("\"\"\"") { throw error("a key cannot be a multi-line string") }
      return try basicString()
    case UInt8(ascii: "'"):
      if startsWith("'''") { throw error("a key cannot be a multi-line string") }
      return try literalString()
    default:
      let start = index
      while let byte = peek(), Self.isBareKeyByte(byte) { index += 1 }
      guard index > start else { throw error("expected a key, found \(found())") }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
  }

  static func isBareKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
         UInt8(ascii: "-"), UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }
}
