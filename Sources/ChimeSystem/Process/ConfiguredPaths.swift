public import ChimeCore

extension SocketPath {
  /// `explicit`, else what this process's environment says (`$CHIME_SOCKET`,
  /// `$XDG_RUNTIME_DIR/chime/chimed.sock`, `/tmp/chime-<uid>/chimed.sock`).
  public static func resolve(_ explicit: String? = nil) -> String {
    resolve(explicit, environment: ProcessEnvironment.variables, uid: ProcessEnvironment.userID)
  }
}

extension DataDirectory {
  /// `explicit`, else `$XDG_STATE_HOME/chime`, else `~/.local/state/chime`, from this process's
  /// environment.
  public static func resolve(_ explicit: String? = nil) -> String {
    resolve(explicit, environment: ProcessEnvironment.variables, home: ProcessEnvironment.homeDirectory)
  }
}

extension AppsDirectory {
  /// `explicit`, else `$XDG_DATA_HOME/chime/apps`, else `~/.local/share/chime/apps`, from this
  /// process's environment.
  public static func resolve(_ explicit: String? = nil) -> String {
    resolve(explicit, environment: ProcessEnvironment.variables, home: ProcessEnvironment.homeDirectory)
  }
}
