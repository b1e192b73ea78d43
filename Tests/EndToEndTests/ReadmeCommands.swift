import Foundation

/// The `chime` command lines of one README section, as a shell would split them: indented code
/// lines starting with `chime `, a trailing `  # comment` dropped, words split at spaces outside
/// double quotes (the README's examples use no other quoting).
enum ReadmeCommands {
  /// The repository's root directory.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func readme() throws -> String {
    try String(contentsOfFile: root.appendingPathComponent("README.md").path, encoding: .utf8)
  }

  /// The commands between `heading` and `end` (each without the leading `chime`).
  static func commands(after heading: String, before end: String) throws -> [[String]] {
    let readme = try readme()
    guard let start = readme.range(of: heading),
          let stop = readme.range(of: end, range: start.upperBound..<readme.endIndex) else { return [] }
    return readme[start.upperBound..<stop.lowerBound].split(separator: "\n").compactMap { line -> [String]? in
      guard line.hasPrefix("    chime ") else { return nil }
      var text = String(line.dropFirst(4))
      if let comment = text.range(of: "  #") { text = String(text[..<comment.lowerBound]) }
      return Array(words(text).dropFirst())
    }
  }

  static func words(_ text: String) -> [String] {
    var words: [String] = [], word = "", quoted = false, inWord = false
    for c in text {
      if c == "\"" { quoted.toggle(); inWord = true } else if c == " " && !quoted {
        if inWord { words.append(word) }
        word = ""; inWord = false
      } else { word.append(c); inWord = true }
    }
    if inWord { words.append(word) }
    return words
  }
}
