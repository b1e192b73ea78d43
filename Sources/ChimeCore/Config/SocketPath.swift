/// Where the daemon listens and clients connect. Pure: the environment and the user come in as
/// arguments (ChimeSystem's `SocketPath.resolve(_:)` reads this process's).
public enum SocketPath {
  /// A Unix socket address holds a path of at most 108 bytes including the NUL.
  public static let maxBytes = 107

  /// `explicit`, else `$CHIME_SOCKET`, else `$XDG_RUNTIME_DIR/chime/chimed.sock`, else
  /// `/tmp/chime-<uid>/chimed.sock`. Empty values count as unset, and so does an
  /// `XDG_RUNTIME_DIR` that is not absolute (the XDG base directory spec: such a value is
  /// invalid and ignored).
  public static func resolve(_ explicit: String?, environment: [String: String], uid: UInt32) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let env = environment["CHIME_SOCKET"], !env.isEmpty { return env }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return runtime + "/chime/chimed.sock"
    }
    return "/tmp/chime-\(uid)/chimed.sock"
  }
}

/// Where the daemon keeps its database and attachment store.
public enum DataDirectory {
  /// `explicit`, else `$XDG_STATE_HOME/chime`, else `<home>/.local/state/chime`, `home` being the
  /// user's home directory (`$HOME`, else the account's). An `XDG_STATE_HOME` that is not
  /// absolute is ignored, as the XDG base directory spec says.
  public static func resolve(_ explicit: String?, environment: [String: String], home: String) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/chime" }
    return home + "/.local/state/chime"
  }
}

/// Where apps' default layouts live: one directory per app, holding `container/` (with
/// `Library/Sounds`) and `bundle/`.
public enum AppsDirectory {
  /// `explicit`, else `$XDG_DATA_HOME/chime/apps`, else `<home>/.local/share/chime/apps`, `home`
  /// being the user's home directory (`$HOME`, else the account's). An `XDG_DATA_HOME` that is
  /// not absolute is ignored, as the XDG base directory spec says.
  public static func resolve(_ explicit: String?, environment: [String: String], home: String) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/chime/apps" }
    return home + "/.local/share/chime/apps"
  }
}
