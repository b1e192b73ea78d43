import FoundationEssentials
import Glibc

/// What this process was started with: its environment variables and its user.
public enum ProcessEnvironment {
  /// The environment as it is now.
  public static var variables: [String: String] { ProcessInfo.processInfo.environment }

  /// The real user id (`getuid(2)`).
  public static var userID: UInt32 { getuid() }

  /// This process's id.
  public static var processID: Int32 { getpid() }

  /// `$HOME`, else the home directory of the user's account.
  public static var homeDirectory: String { variables["HOME"] ?? accountHome ?? "/" }

  /// The home directory in the user's passwd entry (what Foundation's `NSHomeDirectory()` falls
  /// back to, and it is not in FoundationEssentials).
  static var accountHome: String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let dir = entry.pw_dir else { return nil }
    return String(cString: dir)
  }

  /// `path` with a leading `~` (this user's home: `$HOME`, else the passwd entry's) or `~name`
  /// (that user's home) replaced, as Foundation's `expandingTildeInPath` does; unchanged when
  /// it has none or names no user.
  public static func expandingTilde(_ path: String) -> String {
    guard path.hasPrefix("~") else { return path }
    let end = path.firstIndex(of: "/") ?? path.endIndex
    let name = path[path.index(after: path.startIndex)..<end]
    let home: String?
    if name.isEmpty {
      home = homeDirectory
    } else {
      var entry = passwd()
      var result: UnsafeMutablePointer<passwd>?
      var buffer = [CChar](repeating: 0, count: 4096)
      home = getpwnam_r(String(name), &entry, &buffer, buffer.count, &result) == 0 && result != nil
        ? entry.pw_dir.map { String(cString: $0) } : nil
    }
    guard let home else { return path }
    return home + path[end...]
  }

  /// `$TMPDIR`, else `/tmp/`, ending in a slash (as Foundation's `NSTemporaryDirectory()`).
  public static var temporaryDirectory: String {
    let directory = variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return directory.hasSuffix("/") ? directory : directory + "/"
  }
}
