import ChimeCore
import Foundation

/// Every human-readable line the CLI prints goes through here: this `print` shadows Swift's in
/// the module, so a title, identifier or message holding escape sequences is shown escaped
/// (`\e[31m`) instead of repainting or retitling the user's terminal. JSON output calls
/// `Swift.print` and stays exact.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  let text = items.map { "\($0)" }.joined(separator: separator)
  Swift.print(TerminalText.escaped(text, keepingNewlines: true), terminator: terminator)
}

/// One line on stderr, escaped as `print` escapes stdout.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((TerminalText.escaped(line, keepingNewlines: true) + "\n").utf8))
}
