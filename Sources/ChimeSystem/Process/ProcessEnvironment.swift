import Glibc

/// What this process was started with: its environment variables and its user.
public enum ProcessEnvironment {
  /// The environment as it is now (`environ`): each `NAME=value` entry split at its first `=`;
  /// an entry without one is skipped, and of a name given twice the first is kept, as
  /// `getenv(3)` finds it.
  public static var variables: [String: String] {
    // `environ` is NULL after clearenv(3); Swift imports it as non-optional.
    variables(of: UnsafeMutablePointer(bitPattern: UInt(bitPattern: environ)))
  }

  /// The variables of a NULL-terminated list of `NAME=value` entries laid out as `environ` is.
  static func variables(of entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String] {
    var result: [String: String] = [:]
    guard var entry = entries else { return result }
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(text[..<equals])
        if result[name] == nil { result[name] = String(text[text.utf8.index(after: equals)...]) }
      }
      entry += 1
    }
    return result
  }

  /// One variable, as `getenv(3)` finds it; nil when it is not set.
  public static func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

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
