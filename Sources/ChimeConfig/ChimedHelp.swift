/// `chimed --help`: what chimed does, its configuration keys (each with its TOML type and
/// default), examples, and its options (the hidden ones left out; a key's help is its flag's),
/// wrapped at 80 columns. Every key and setting flag comes from `ChimedSettings.all`. help2man makes chimed's man page from it: the
/// keys, examples and options are lists of a label and its text in two columns, which it
/// makes tagged paragraphs of.
extension ChimedCommandLine {
  /// The width lines are wrapped to (ArgumentParser's, kept for the man page).
  public static let width = 80
  /// Where the options' help starts.
  static let helpColumn = 26

  public static var help: String {
    var text = "OVERVIEW: The Chime notification scheduler daemon.\n\n"
    for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
      switch line {
      case keysPlaceholder:
        text += twoColumns(ConfigKey.all.map { ("\($0.name) (\($0.kind.tomlName))", $0.defaultSummary ?? "unset by default") })
      case examplePlaceholder:
        text += twoColumns(exampleFile)
      case commandsPlaceholder:
        text += twoColumns(exampleCommands)
      default:
        text += wrap(String(line), width: width).joined(separator: "\n") + "\n"
      }
    }
    text += "\nUSAGE: chimed <options>\n\nOPTIONS:\n"
    let listed = ChimedOption.all.compactMap { option in option.help.map { (option.label, $0) } }
    text += twoColumns(listed + [("--version", "Show the version."), ("-h, --help", "Show help information.")])
    return text + "\n"
  }

  /// Each row's label indented by two, its text from `helpColumn` on (below the label when the
  /// label is too long to leave two spaces), wrapped: the layout help2man makes a list of.
  /// At least two spaces stand between a label and its text on one line (help2man needs two
  /// to tell them apart).
  static func twoColumns(_ rows: [(String, String)]) -> String {
    var text = ""
    let indent = String(repeating: " ", count: helpColumn)
    for (label, help) in rows {
      let lines = wrap(help, width: width - helpColumn)
      if 2 + label.count + 2 <= helpColumn {
        text += "  " + label + String(repeating: " ", count: helpColumn - 2 - label.count) + lines[0] + "\n"
        text += lines.dropFirst().map { indent + $0 + "\n" }.joined()
      } else {
        text += "  " + label + "\n" + lines.map { indent + $0 + "\n" }.joined()
      }
    }
    return text
  }

  /// Where `discussion` lists the configuration keys (in two columns, as the options).
  static let keysPlaceholder = "{keys}"
  static let examplePlaceholder = "{example}"
  static let commandsPlaceholder = "{commands}"

  static var discussion: String {
    """
    Serves the NotificationCenter API on a Unix socket (only to the user it runs as), keeps \
    requests in SQLite and fires them on time. Stop it with SIGTERM or Ctrl-C: it finishes \
    the commits in flight and closes the database.

    Settings come from flags, then the environment ($CHIME_SOCKET), then the configuration \
    file, then the defaults. The file is TOML, $XDG_CONFIG_HOME/chime/chimed.toml or \
    ~/.config/chime/chimed.toml unless --config names another; its keys are the long flags' \
    names. Paths (socket, data-dir, apps-dir, thumbnailer) are absolute or start with ~/, \
    which is $HOME. An invalid file (syntax, unknown key, wrong type, bad value, a relative \
    path) stops chimed with exit status 78 and a message naming the key and its line; started \
    by socket activation, chimed instead stays up and answers every call, on the socket and on \
    the session bus, with FAILED_PRECONDITION CONFIG_INVALID and that message, doing nothing \
    else, until restarted (SIGHUP stops it then, and the next \
    connection starts chimed anew). `chimed --print-config` shows \
    each value and where it came from. SIGHUP re-reads the file and applies log-level; other \
    keys are applied on restart.

    Configuration keys:
    \(keysPlaceholder)

    Example chimed.toml:
    \(examplePlaceholder)

    Examples:
    \(commandsPlaceholder)
    """
  }

  /// The lines of an example chimed.toml, each with what it does.
  static let exampleFile = [
    ("log-level = \"debug\"", "more detail in the log"),
    ("missed-grace = 5", "a fire up to 5 seconds late is still on time"),
    ("attachment-quota = \"500MB\"", "each app may keep 500 MB of attachments"),
    ("presenter = \"freedesktop,command\"", "show each delivery on the desktop and run present-command"),
    ("present-command = \"/usr/local/bin/notify-hook\"", "the program run for each delivery"),
  ]

  static let exampleCommands = [
    ("chimed", "serve, with the settings of flags, environment and file"),
    ("chimed --print-config", "print the effective settings and where each came from"),
    ("chimed --compact-store", "rebuild the store in place, with chimed stopped"),
    ("chimed --socket /tmp/t/chimed.sock --data-dir /tmp/t --log-level debug", "a chimed of its own, for a test"),
  ]

  /// `line` in lines of fewer than `width` characters (the last may have `width`), broken at
  /// spaces (a line that fits is kept as it is); a line that starts indented keeps its indent, and its continuation lines
  /// are indented two more.
  static func wrap(_ line: String, width: Int) -> [String] {
    if line.count <= width { return [line] }
    let indent = line.prefix { $0 == " " }.count
    let words = line.dropFirst(indent).split(separator: " ")
    guard !words.isEmpty else { return [""] }
    var lines: [String] = []
    var current = String(repeating: " ", count: indent) + words[0]
    for (index, word) in words.enumerated().dropFirst() {
      // A space stays free at the end of each line but the last (as ArgumentParser wraps).
      let room = index == words.count - 1 ? width : width - 1
      if current.count + 1 + word.count <= room {
        current += " " + word
      } else {
        lines.append(current)
        current = String(repeating: " ", count: indent == 0 ? 0 : indent + 2) + word
      }
    }
    return lines + [current]
  }
}
