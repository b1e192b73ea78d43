import Glibc

/// The process's standard output as a command-line program needs it: whether a person reads
/// it, how wide their terminal is, and flushing before it exits or waits.
public enum StandardStreams {
  /// True when standard output is a terminal.
  public static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

  /// The width of the terminal standard output is, in columns (TIOCGWINSZ), or nil when it is
  /// not a terminal or does not say.
  public static var terminalColumns: Int? {
    guard outputIsTerminal else { return nil }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Writes out whatever the C library holds for every stream (`fflush(NULL)`): before waiting
  /// for events, so a reader of a pipe sees each line as it happens.
  public static func flush() { fflush(nil) }

  /// Writes `text` to standard error at once (unbuffered, all of it unless the stream is gone):
  /// a daemon's last words before it exits.
  public static func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return }
    bytes.withUnsafeBytes { try? FileDescriptor(rawValue: STDERR_FILENO).writeAll($0) }
  }

  /// Flushes and ends the process with `status`, running no Swift deinitializers.
  public static func exit(_ status: Int32) -> Never {
    Glibc.exit(status)
  }
}
