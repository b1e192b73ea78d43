import Foundation
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
  public static var homeDirectory: String { variables["HOME"] ?? NSHomeDirectory() }
}
