/// Text from apps made safe to print on a terminal: any app of the user can put escape
/// sequences in a title, and printed raw they would repaint the screen, retitle the window or
/// worse. Control characters are shown escaped instead; JSON output stays exact and never goes
/// through here.
public enum TerminalText {
  /// `text` with every C0 control, DEL, C1 control and bidirectional override shown as a
  /// visible escape (`\e`, `\n`, `\t`, `\x07`, `\u{202E}`); a backslash stays as it is.
  /// With `keepingNewlines`, a line feed stays a line break (for whole blocks of output whose
  /// lines Chime made; a cell or a title escapes it).
  public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
    let escapes = { (scalar: Unicode.Scalar) in needsEscape(scalar) && !(keepingNewlines && scalar == "\n") }
    guard text.unicodeScalars.contains(where: escapes) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard escapes(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      out += escape(scalar)
    }
    return out
  }

  /// Whether printing `scalar` could change the terminal's state or the order text is shown in.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F, 0x80...0x9F: true
    // Bidirectional embeddings, overrides and isolates: they reorder what follows them.
    case 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x1B: return "\\e"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x09: return "\\t"
    case 0x00...0x7F: return "\\x" + hex(scalar.value, digits: 2)
    default: return "\\u{" + hex(scalar.value, digits: 4) + "}"
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
