/// A small JSON reader for push payloads: a tree of values, each object member keeping the
/// bytes it was written with (so keys outside `aps` pass into user info exactly as sent).
///
/// Bounded: nesting deeper than `maxDepth` is refused, and the input is already bounded by the
/// payload limit. Foundation's JSONSerialization is not used: it is not in FoundationEssentials,
/// loses the member order and the text of numbers, and bounds nothing.
enum PushJSON: Equatable {
  case object([Member])
  case array([PushJSON])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  struct Member: Equatable {
    var key: String
    var value: PushJSON
    /// The member as written, `"key": value`, without surrounding space.
    var raw: ArraySlice<UInt8>
  }

  /// The value of `key` in an object (the last one when a key repeats); nil otherwise.
  subscript(key: String) -> PushJSON? {
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

  /// Parses one JSON document; nil when it is not one (or nests deeper than `maxDepth`).
  static func parse(_ bytes: [UInt8], maxDepth: Int = 32) -> PushJSON? {
    var reader = Reader(bytes: bytes, maxDepth: maxDepth)
    reader.skipSpace()
    guard let value = reader.value(depth: 0) else { return nil }
    reader.skipSpace()
    return reader.index == bytes.count ? value : nil
  }

  private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    mutating func expect(_ c: UInt8) -> Bool {
      guard peek == c else { return false }
      index += 1
      return true
    }

    mutating func value(depth: Int) -> PushJSON? {
      guard depth <= maxDepth else { return nil }
      skipSpace()
      guard let b = peek else { return nil }
      switch b {
      case UInt8(ascii: "{"): return object(depth: depth + 1)
      case UInt8(ascii: "["): return array(depth: depth + 1)
      case UInt8(ascii: "\""): return string().map(PushJSON.string)
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return literal("null") ? .null : nil
      default: return number()
      }
    }

    mutating func object(depth: Int) -> PushJSON? {
      guard depth <= maxDepth else { return nil }
      index += 1
      var members: [Member] = []
      skipSpace()
      if expect(UInt8(ascii: "}")) { return .object(members) }
      while true {
        skipSpace()
        let start = index
        guard let key = string() else { return nil }
        skipSpace()
        guard expect(UInt8(ascii: ":")), let value = value(depth: depth) else { return nil }
        members.append(Member(key: key, value: value, raw: bytes[start..<index]))
        skipSpace()
        if expect(UInt8(ascii: "}")) { return .object(members) }
        guard expect(UInt8(ascii: ",")) else { return nil }
      }
    }

    mutating func array(depth: Int) -> PushJSON? {
      guard depth <= maxDepth else { return nil }
      index += 1
      var items: [PushJSON] = []
      skipSpace()
      if expect(UInt8(ascii: "]")) { return .array(items) }
      while true {
        guard let item = value(depth: depth) else { return nil }
        items.append(item)
        skipSpace()
        if expect(UInt8(ascii: "]")) { return .array(items) }
        guard expect(UInt8(ascii: ",")) else { return nil }
      }
    }

    mutating func string() -> String? {
      guard expect(UInt8(ascii: "\"")) else { return nil }
      var out: [UInt8] = []
      while let b = peek {
        index += 1
        switch b {
        case UInt8(ascii: "\""):
          return String(validating: out, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard let e = peek else { return nil }
          index += 1
          switch e {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "u"):
            guard var scalar = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(scalar) {
              // A high surrogate must be followed by an escaped low one.
              guard expect(UInt8(ascii: "\\")), expect(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let s = Unicode.Scalar(scalar) else { return nil }
            out.append(contentsOf: String(Character(s)).utf8)
          default: return nil
          }
        case 0..<0x20: return nil
        default: out.append(b)
        }
      }
      return nil
    }

    mutating func hex4() -> UInt32? {
      var v: UInt32 = 0
      for _ in 0..<4 {
        guard let h = peek else { return nil }
        let d: UInt32
        switch h {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
        default: return nil
        }
        v = v * 16 + d
        index += 1
      }
      return v
    }

    mutating func literal(_ word: String) -> Bool {
      for c in word.utf8 {
        guard expect(c) else { return false }
      }
      return true
    }

    mutating func number() -> PushJSON? {
      let start = index
      _ = expect(UInt8(ascii: "-"))
      guard let first = peek, isDigit(first) else { return nil }
      if first == UInt8(ascii: "0") { index += 1 } else { digits() }
      if expect(UInt8(ascii: ".")) {
        guard let d = peek, isDigit(d) else { return nil }
        digits()
      }
      if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
        index += 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
        guard let d = peek, isDigit(d) else { return nil }
        digits()
      }
      guard let text = String(validating: bytes[start..<index], as: UTF8.self), let value = Double(text), value.isFinite else { return nil }
      return .number(value)
    }

    mutating func digits() {
      while let d = peek, isDigit(d) { index += 1 }
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
  }
}
