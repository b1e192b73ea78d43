/// The string literals of Swift source text, for tests that check what the program says (every
/// flag a hint names exists, no example is dated in the past) without running every path.
public enum SwiftStringLiterals {
  /// The text between each literal's quotes as written (escapes and `\(...)` kept), outside
  /// comments; `"..."`, `"""..."""` and raw `#"..."#` literals. An interpolation's own literals
  /// are skipped with it.
  public static func of(_ source: String) -> [String] {
    let s = Array(source.unicodeScalars)
    var out: [String] = []
    var i = 0
    func at(_ k: Int, _ text: String) -> Bool {
      let scalars = Array(text.unicodeScalars)
      guard k + scalars.count <= s.count else { return false }
      return (0..<scalars.count).allSatisfy { s[k + $0] == scalars[$0] }
    }
    while i < s.count {
      if at(i, "//") {
        while i < s.count, s[i] != "\n" { i += 1 }
      } else if at(i, "/*") {
        i += 2
        while i < s.count, !at(i, "*/") { i += 1 }
        i += 2
      } else if s[i] == "#" || s[i] == "\"" {
        var hashes = 0
        while i + hashes < s.count, s[i + hashes] == "#" { hashes += 1 }
        guard i + hashes < s.count, s[i + hashes] == "\"" else {
          i += max(hashes, 1)
          continue
        }
        i += hashes
        let multiline = at(i, "\"\"\"")
        let quote = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
        let escape = "\\" + String(repeating: "#", count: hashes)
        i += multiline ? 3 : 1
        var text = String.UnicodeScalarView()
        while i < s.count, !at(i, quote) {
          if at(i, escape + "(") {
            // An interpolation: kept as written, up to its closing parenthesis.
            var depth = 0
            repeat {
              if s[i] == "(" { depth += 1 }
              if s[i] == ")" { depth -= 1 }
              text.append(s[i])
              i += 1
            } while i < s.count && depth > 0
            continue
          }
          if at(i, escape), i + escape.unicodeScalars.count < s.count {
            text.append(contentsOf: (escape.unicodeScalars + [s[i + escape.unicodeScalars.count]]))
            i += escape.unicodeScalars.count + 1
            continue
          }
          if !multiline, s[i] == "\n" { break }
          text.append(s[i])
          i += 1
        }
        i += quote.unicodeScalars.count
        out.append(String(text))
      } else {
        i += 1
      }
    }
    return out
  }
}
