import Foundation
import Glibc

/// Where the daemon listens and clients connect.
public enum SocketPath {
  /// `sockaddr_un.sun_path` holds 108 bytes including the NUL.
  public static let maxBytes = 107

  /// `$CHIME_SOCKET`, else `$XDG_RUNTIME_DIR/chime/chimed.sock`, else `/tmp/chime-<uid>/chimed.sock`.
  public static func resolve(_ explicit: String? = nil, environment: [String: String]? = nil) -> String {
    let environment = environment ?? ProcessInfo.processInfo.environment
    if let explicit, !explicit.isEmpty { return explicit }
    if let env = environment["CHIME_SOCKET"], !env.isEmpty { return env }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return runtime + "/chime/chimed.sock"
    }
    return "/tmp/chime-\(getuid())/chimed.sock"
  }
}

/// Where the daemon keeps its database and attachment store.
public enum DataDirectory {
  /// `$XDG_STATE_HOME/chime`, else `~/.local/state/chime`.
  public static func resolve(_ explicit: String? = nil, environment: [String: String]? = nil) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    let environment = environment ?? ProcessInfo.processInfo.environment
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/chime" }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/state/chime"
  }
}

/// Where apps' default layouts live: one directory per app, holding `container/` (with
/// `Library/Sounds`) and `bundle/`.
public enum AppsDirectory {
  /// `$XDG_DATA_HOME/chime/apps`, else `~/.local/share/chime/apps`.
  public static func resolve(_ explicit: String? = nil, environment: [String: String]? = nil) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    let environment = environment ?? ProcessInfo.processInfo.environment
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/chime/apps" }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/share/chime/apps"
  }
}
