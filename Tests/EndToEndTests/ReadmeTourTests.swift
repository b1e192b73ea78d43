import ChimeTestSupport
import Foundation
import Testing

/// The README's "A tour of the CLI" runs exactly as written, against a daemon in a temporary
/// directory (the tour's `chime` lines, comments dropped, words split as a shell would for
/// double quotes).
@Suite(.testTimeLimit) struct ReadmeTourTests {
  /// The repository's root directory.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func tourCommands() throws -> [[String]] {
    let readme = try String(contentsOfFile: root.appendingPathComponent("README.md").path, encoding: .utf8)
    guard let start = readme.range(of: "## A tour of the CLI"), let end = readme.range(of: "looks like this", range: start.upperBound..<readme.endIndex) else { return [] }
    return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line -> [String]? in
      guard line.hasPrefix("    chime ") else { return nil }
      var text = String(line.dropFirst(4))
      if let comment = text.range(of: "  #") { text = String(text[..<comment.lowerBound]) }
      var words: [String] = [], word = "", quoted = false, inWord = false
      for c in text {
        if c == "\"" { quoted.toggle(); inWord = true } else if c == " " && !quoted {
          if inWord { words.append(word) }
          word = ""; inWord = false
        } else { word.append(c); inWord = true }
      }
      if inWord { words.append(word) }
      return Array(words.dropFirst())
    }
  }

  @Test func tourRunsAsWritten() throws {
    let commands = try Self.tourCommands()
    #expect(commands.count >= 7)
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    for arguments in commands {
      let run = try ChimeCLI.run(arguments, socket: daemon.socketPath, timeout: 30)
      #expect(run.status == 0, "chime \(arguments.joined(separator: " ")): \(run.stderr)")
      if arguments == ["pending"] {
        #expect(run.stdout.hasPrefix("ID       TITLE    TRIGGER"))
        #expect(run.stdout.contains("every 1h"))
      }
    }
  }
}
