/// A small, bounded JSON syntax checker for user info: is this text one JSON object?
///
/// Written here rather than with Foundation's JSONSerialization because the daemon must bound
/// nesting depth before parsing (a deeply nested document is a cheap attack), and this never
/// allocates a tree.
enum JSONShape {
  static func isObject(_ bytes: [UInt8], maxDepth: Int) -> Bool {
    var parser = Parser(bytes: bytes, maxDepth: maxDepth)
    parser.skipSpace()
    guard parser.peek == UInt8(ascii: "{"), parser.value(depth: 0) else { return false }
    parser.skipSpace()
    return parser.index == bytes.count
  }

  private struct Parser {
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

    mutating func value(depth: Int) -> Bool {
      guard depth <= maxDepth else { return false }
      skipSpace()
      guard let b = peek else { return false }
      switch b {
      case UInt8(ascii: "{"): return object(depth: depth + 1)
      case UInt8(ascii: "["): return array(depth: depth + 1)
      case UInt8(ascii: "\""): return string()
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return number()
      }
    }

    mutating func object(depth: Int) -> Bool {
      guard depth <= maxDepth else { return false }
      index += 1
      skipSpace()
      if expect(UInt8(ascii: "}")) { return true }
      while true {
        skipSpace()
        guard string() else { return false }
        skipSpace()
        guard expect(UInt8(ascii: ":")), value(depth: depth) else { return false }
        skipSpace()
        if expect(UInt8(ascii: "}")) { return true }
        guard expect(UInt8(ascii: ",")) else { return false }
      }
    }

    mutating func array(depth: Int) -> Bool {
      guard depth <= maxDepth else { return false }
      index += 1
      skipSpace()
      if expect(UInt8(ascii: "]")) { return true }
      while true {
        guard value(depth: depth) else { return false }
        skipSpace()
        if expect(UInt8(ascii: "]")) { return true }
        guard expect(UInt8(ascii: ",")) else { return false }
      }
    }

    mutating func string() -> Bool {
      guard expect(UInt8(ascii: "\"")) else { return false }
      while let b = peek {
        index += 1
        switch b {
        case UInt8(ascii: "\""): return true
        case UInt8(ascii: "\\"):
          guard let e = peek else { return false }
          index += 1
          if e == UInt8(ascii: "u") {
            for _ in 0..<4 {
              guard let h = peek, isHex(h) else { return false }
              index += 1
            }
          } else if !"\"\\/bfnrt".utf8.contains(e) {
            return false
          }
        case 0..<0x20: return false
        default: continue
        }
      }
      return false
    }

    mutating func literal(_ word: String) -> Bool {
      for c in word.utf8 {
        guard expect(c) else { return false }
      }
      return true
    }

    mutating func number() -> Bool {
      _ = expect(UInt8(ascii: "-"))
      guard let first = peek, isDigit(first) else { return false }
      if first == UInt8(ascii: "0") { index += 1 } else { digits() }
      if expect(UInt8(ascii: ".")) {
        guard let d = peek, isDigit(d) else { return false }
        digits()
      }
      if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
        index += 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
        guard let d = peek, isDigit(d) else { return false }
        digits()
      }
      return true
    }

    mutating func digits() {
      while let d = peek, isDigit(d) { index += 1 }
    }

    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }
  }
}
