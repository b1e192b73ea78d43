import ChimeCore
import ChimeSystem
import FoundationEssentials

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
  let bytes = Array((TerminalText.escaped(line, keepingNewlines: true) + "\n").utf8)
  bytes.withUnsafeBytes { bytes in
    do {
      try FileDescriptor(rawValue: 2).writeAll(bytes)
    } catch {
      // Nothing to do when stderr is gone.
    }
  }
}
