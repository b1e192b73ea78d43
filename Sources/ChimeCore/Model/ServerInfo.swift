/// What is serving (`GetServerInfo`): the daemon's version, process and store, for
/// `chime doctor` and bug reports.
public struct ServerInfo: Hashable, Sendable {
  /// As `chimed --version` prints it: "0.4.0 (git 1a2b3c4d5e6f)".
  public var version: String
  public var processID: Int32
  public var startedAt: Instant
  /// The directory holding chime.db and the attachments, as the daemon resolved it.
  public var dataDirectory: String
  /// The socket it listens on (for a socket systemd passed, what that socket is bound to).
  public var socketPath: String

  public init(version: String, processID: Int32, startedAt: Instant, dataDirectory: String, socketPath: String) {
    self.version = version
    self.processID = processID
    self.startedAt = startedAt
    self.dataDirectory = dataDirectory
    self.socketPath = socketPath
  }
}
