/// Chime's one JSON reader, for push payloads and user info: a tree of values, each object
/// member keeping the bytes it was written with (so keys outside `aps` pass into user info
/// exactly as sent), or where and why the text stops being JSON.
///
/// Bounded: nesting deeper than `maxDepth` is refused before it is built (a deeply nested
/// document is a cheap attack), and the inputs are bounded by their own limits. Foundation's JSONSerialization is not used: it is not in FoundationEssentials,
/// loses the member order and the text of numbers, and bounds nothing.
enum JSONDocument: Equatable {
  case object([Member])
  case array([JSONDocument])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  struct Member: Equatable {
    var key: String
    var value: JSONDocument
    /// The member as written, `"key": value`, without surrounding space.
    var raw: ArraySlice<UInt8>
  }

  /// The value of `key` in an object (the last one when a key repeats); nil otherwise.
  subscript(key: String) -> JSONDocument? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }

  /// Where and why a document is not JSON.
  struct SyntaxError: Error, Equatable {
    /// 1-based; lines end at LF, columns count characters (UTF-8 sequences).
    var line: Int
    var column: Int
    /// What was wanted and what was found there, e.g. `expected ',' or '}' after the value of
    /// "badge", found '"'`.
    var problem: String

    var description: String { "line \(line), column \(column): \(problem)" }
  }

  /// Parses one JSON document; nil when it is not one (or nests deeper than `maxDepth`).
  static func parse(_ bytes: [UInt8], maxDepth: Int = 32) -> JSONDocument? {
    try? parseOrExplain(bytes, maxDepth: maxDepth).get()
  }

  /// Parses one JSON document, or says where it stops being one.
  static func parseOrExplain(_ bytes: [UInt8], maxDepth: Int = 32) -> Result<JSONDocument, SyntaxError> {
    var reader = Reader(bytes: bytes, maxDepth: maxDepth)
    reader.skipSpace()
    if let value = reader.value(depth: 0) {
      reader.skipSpace()
      if reader.index == bytes.count { return .success(value) }
      reader.fail("expected the end of the payload after the JSON value")
    }
    return .failure(reader.syntaxError())
  }

  private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0
    /// The first failure: where, and what was wanted.
    var failure: (index: Int, wanted: String)?

    /// Records that `wanted` was not at the current index (the first failure wins: the
    /// callers above it only give up), and returns nil for the caller to return.
    mutating func fail<T>(_ wanted: String, at position: Int? = nil, _: T.Type = T.self) -> T? {
      if failure == nil { failure = (position ?? index, wanted) }
      return nil
    }

    mutating func fail(_ wanted: String, at position: Int? = nil) {
      if failure == nil { failure = (position ?? index, wanted) }
    }

    func syntaxError() -> SyntaxError {
      let (at, wanted) = failure ?? (index, "not a JSON value")
      var line = 1, column = 1
      for b in bytes[..<min(at, bytes.count)] {
        if b == 0x0A {
          line += 1
          column = 1
        } else if b & 0xC0 != 0x80 {
          column += 1
        }
      }
      return SyntaxError(line: line, column: column, problem: "\(wanted), found \(Self.describe(bytes, at))")
    }

    /// The text at `at`, for a message: a character in quotes, "the end of the payload", or
    /// a byte in hex when it is not text.
    static func describe(_ bytes: [UInt8], _ at: Int) -> String {
      guard at < bytes.count else { return "the end of the payload" }
      let b = bytes[at]
      switch b {
      case 0x0A: return "a line break"
      case 0x09: return "a tab"
      case 0x20..<0x7F: return b == UInt8(ascii: "'") ? "\"'\"" : "'\(Character(Unicode.Scalar(b)))'"
      case 0xC2..<0xF5:
        let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        if at + length <= bytes.count, let text = String(validating: bytes[at..<(at + length)], as: UTF8.self) {
          return "'\(text)'"
        }
        return "the byte \(hex(b))"
      default: return "the byte \(hex(b))"
      }
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    mutating func expect(_ c: UInt8) -> Bool {
      guard peek == c else { return false }
      index += 1
      return true
    }

    mutating func value(depth: Int) -> JSONDocument? {
      guard depth <= maxDepth else { return fail("nesting deeper than \(maxDepth) levels") }
      skipSpace()
      guard let b = peek else { return fail("expected a value") }
      switch b {
      case UInt8(ascii: "{"): return object(depth: depth + 1)
      case UInt8(ascii: "["): return array(depth: depth + 1)
      case UInt8(ascii: "\""): return string().map(JSONDocument.string)
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return literal("null") ? .null : nil
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
      default: return fail("expected a value (an object, array, string, number, true, false or null)")
      }
    }

    mutating func object(depth: Int) -> JSONDocument? {
      guard depth <= maxDepth else { return fail("nesting deeper than \(maxDepth) levels") }
      index += 1
      var members: [Member] = []
      skipSpace()
      if expect(UInt8(ascii: "}")) { return .object(members) }
      while true {
        skipSpace()
        let start = index
        if !members.isEmpty && peek == UInt8(ascii: "}") {
          return fail("a trailing comma: expected another member after ','")
        }
        guard peek == UInt8(ascii: "\"") else { return fail("expected a member name in double quotes") }
        guard let key = string() else { return nil }
        skipSpace()
        guard expect(UInt8(ascii: ":")) else { return fail("expected ':' after the member name \"\(key)\"") }
        guard let value = value(depth: depth) else { return nil }
        members.append(Member(key: key, value: value, raw: bytes[start..<index]))
        skipSpace()
        if expect(UInt8(ascii: "}")) { return .object(members) }
        guard expect(UInt8(ascii: ",")) else { return fail("expected ',' or '}' after the value of \"\(key)\"") }
      }
    }

    mutating func array(depth: Int) -> JSONDocument? {
      guard depth <= maxDepth else { return fail("nesting deeper than \(maxDepth) levels") }
      index += 1
      var items: [JSONDocument] = []
      skipSpace()
      if expect(UInt8(ascii: "]")) { return .array(items) }
      while true {
        skipSpace()
        if !items.isEmpty && peek == UInt8(ascii: "]") {
          return fail("a trailing comma: expected another element after ','")
        }
        guard let item = value(depth: depth) else { return nil }
        items.append(item)
        skipSpace()
        if expect(UInt8(ascii: "]")) { return .array(items) }
        guard expect(UInt8(ascii: ",")) else { return fail("expected ',' or ']' after element \(items.count) of the array") }
      }
    }

    mutating func string() -> String? {
      let opening = index
      guard expect(UInt8(ascii: "\"")) else { return fail("expected '\"'") }
      var out: [UInt8] = []
      while let b = peek {
        index += 1
        switch b {
        case UInt8(ascii: "\""):
          guard let text = String(validating: out, as: UTF8.self) else { return fail("the string is not valid UTF-8", at: opening) }
          return text
        case UInt8(ascii: "\\"):
          guard let e = peek else { return fail("expected an escaped character after '\\'") }
          index += 1
          switch e {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "u"):
            let escape = index - 2
            guard var scalar = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(scalar) {
              // A high surrogate must be followed by an escaped low one.
              guard expect(UInt8(ascii: "\\")), expect(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else {
                return fail("expected a \\u escape of a low surrogate after the high surrogate")
              }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let s = Unicode.Scalar(scalar) else { return fail("a lone surrogate in a \\u escape", at: escape) }
            out.append(contentsOf: String(Character(s)).utf8)
          default: return fail("expected one of \" \\ / b f n r t u after '\\'", at: index - 1)
          }
        case 0..<0x20: return fail("a control character inside a string (escape it)", at: index - 1)
        default: out.append(b)
        }
      }
      return fail("a string that is never closed (it opens at line \(lineOf(opening)))")
    }

    /// The 1-based line of a byte offset.
    func lineOf(_ at: Int) -> Int {
      bytes[..<min(at, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    mutating func hex4() -> UInt32? {
      var v: UInt32 = 0
      for _ in 0..<4 {
        guard let h = peek else { return fail("expected four hexadecimal digits in a \\u escape") }
        let d: UInt32
        switch h {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
        default: return fail("expected four hexadecimal digits in a \\u escape")
        }
        v = v * 16 + d
        index += 1
      }
      return v
    }

    mutating func literal(_ word: String) -> Bool {
      let start = index
      for c in word.utf8 {
        guard expect(c) else {
          fail("expected a value (\(word)?)", at: start)
          return false
        }
      }
      return true
    }

    mutating func number() -> JSONDocument? {
      let start = index
      _ = expect(UInt8(ascii: "-"))
      guard let first = peek, isDigit(first) else { return fail("expected a digit in a number") }
      if first == UInt8(ascii: "0") { index += 1 } else { digits() }
      if expect(UInt8(ascii: ".")) {
        guard let d = peek, isDigit(d) else { return fail("expected a digit after the decimal point") }
        digits()
      }
      if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
        index += 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
        guard let d = peek, isDigit(d) else { return fail("expected a digit in the exponent") }
        digits()
      }
      guard let text = String(validating: bytes[start..<index], as: UTF8.self), let value = Double(text), value.isFinite else {
        return fail("a number out of range", at: start)
      }
      return .number(value)
    }

    mutating func digits() {
      while let d = peek, isDigit(d) { index += 1 }
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
  }
}
