/// `chimed --help`: what chimed does, its configuration keys, and its options (the hidden ones
/// left out), wrapped at 80 columns. help2man makes chimed's man page from it.
extension ChimedCommandLine {
  /// The width lines are wrapped to (ArgumentParser's, kept for the man page).
  public static let width = 80
  /// Where the options' help starts.
  static let helpColumn = 26

  public static var help: String {
    var text = "OVERVIEW: The Chime notification scheduler daemon.\n\n"
    for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
      text += wrap(String(line), width: width).joined(separator: "\n") + "\n"
    }
    text += "\nUSAGE: chimed <options>\n\nOPTIONS:\n"
    let listed = ChimedOption.all.compactMap { option in option.help.map { (option.label, $0) } }
    for (label, help) in listed + [("--version", "Show the version."), ("-h, --help", "Show help information.")] {
      let lines = wrap(help, width: width - helpColumn)
      let indent = String(repeating: " ", count: helpColumn)
      if 2 + label.count < helpColumn {
        text += "  " + label + String(repeating: " ", count: helpColumn - 2 - label.count) + lines[0] + "\n"
        text += lines.dropFirst().map { indent + $0 + "\n" }.joined()
      } else {
        text += "  " + label + "\n" + lines.map { indent + $0 + "\n" }.joined()
      }
    }
    return text + "\n"
  }

  static var discussion: String {
    """
    Serves the NotificationCenter API on a Unix socket (only to the user it runs as), keeps \
    requests in SQLite and fires them on time. Stop it with SIGTERM or Ctrl-C: it finishes \
    the commits in flight and closes the database.

    Settings come from flags, then the environment ($CHIME_SOCKET), then the configuration \
    file, then the defaults. The file is TOML, $XDG_CONFIG_HOME/chime/chimed.toml or \
    ~/.config/chime/chimed.toml unless --config names another; its keys are the long flags' \
    names. An invalid file (syntax, unknown key, wrong type or bad value) stops chimed with \
    exit status 78 and a message naming the key and its line; started by socket activation, \
    chimed instead stays up and answers every call with FAILED_PRECONDITION CONFIG_INVALID \
    and that message, doing nothing else, until restarted (SIGHUP stops it then, and the next \
    connection starts chimed anew). `chimed --print-config` shows \
    each value and where it came from. SIGHUP re-reads the file and applies log-level; other \
    keys are applied on restart.

    Configuration keys:
    \(ConfigKey.all.map { "  \($0.name) (\($0.kind.tomlName)): \($0.summary)" }.joined(separator: "\n"))

    Example chimed.toml:
      log-level = "debug"
      missed-grace = 5
      attachment-quota = "500MB"
      presenter = "freedesktop,command"
      present-command = "/usr/local/bin/notify-hook"

    Examples:
      chimed
      chimed --print-config
      chimed --compact-store          (with chimed stopped)
      chimed --socket /tmp/chime-test/chimed.sock --data-dir /tmp/chime-test --log-level debug
    """
  }

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
