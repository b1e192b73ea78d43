public import ChimeConfig
public import ChimeCore
import ChimeSystem
public import Logging

/// Everything the daemon needs to start, in parts: where its files are (`paths`), the numbers
/// that bound it (`limits`), how it answers apps (`policy`), what it works with
/// (`collaborators`), and, apart, what only tests replace (`hooks`). `chimed` fills the first
/// three from its settings (`ServerSettings`, declared in `ChimedSettings`); tests fill them with a
/// temporary directory and small limits.
public struct ServerConfiguration: Sendable {
  public var paths: ServerPaths
  public var limits = ServerLimits()
  public var policy = ServerPolicy()
  public var collaborators: ServerCollaborators
  /// What `GetServerInfo` reports as the version (chimed sets its build's, with the revision).
  public var version: String = ChimeVersion.string
  /// When set, the daemon only answers: every call (socket or in-process) ends with this error,
  /// and no store is opened, nothing is scheduled or presented. chimed serves this way when its
  /// configuration is invalid under socket activation, so clients read the cause rather than a
  /// closed connection.
  public var refuseEveryCall: ChimeError?
  /// With `refuseEveryCall`: refuse on the session bus only, with no socket at all (chimed
  /// started by D-Bus activation without a service manager, whose configured socket may be
  /// what is invalid).
  public var refuseOnBusOnly = false
  /// What tests put in place of the system's clock, zone, desktop and `/proc`. Kept out of the
  /// other parts so that what production sets is all there: chimed sets a hook only for its
  /// hidden test flags (`--clock-offset`, `--proc-root`).
  public var hooks = ServerTestHooks()

  public init(paths: ServerPaths, logger: Logger = Logger(label: "chimed")) {
    self.paths = paths
    collaborators = ServerCollaborators(logger: logger)
  }

  public init(socketPath: String, dataDirectory: String, logger: Logger = Logger(label: "chimed")) {
    self.init(paths: ServerPaths(socketPath: socketPath, dataDirectory: dataDirectory), logger: logger)
  }
}

/// What the daemon works with besides its store: the log, the presenters, the session bus and
/// the service manager's socket.
public struct ServerCollaborators: Sendable {
  public var logger: Logger
  /// Where deliveries are shown and whether Chime plays their sounds, besides the log.
  public var presentation = PresentationConfiguration()
  /// Where the D-Bus API is served (the session bus, in chimed); nil: it is not.
  public var dbus: DBusConfiguration?
  /// A Unix stream socket already bound and listening, to serve instead of binding
  /// `paths.socketPath` (socket activation: the service manager owns the socket file, so
  /// chimed neither prepares nor removes it). `paths.socketPath` still names it in logs.
  public var inheritedListener: Int32?
  /// Called once, on the loop, when a graceful shutdown begins (chimed tells the service
  /// manager it is stopping).
  public var onStopping: (@Sendable () -> Void)?

  public init(logger: Logger) {
    self.logger = logger
  }
}

/// What tests replace to drive the daemon: each defaults to the real thing, which production
/// never changes (only chimed's hidden test flags do). A separate type so that none of it is
/// mistaken for a setting, and so that a reader of `ServerConfiguration` sees at once what
/// exists only for tests.
public struct ServerTestHooks: Sendable {
  /// Tests use a `ManualWallClock`; chimed's `--clock-offset` an `OffsetWallClock`.
  public var clock: any WallClock = SystemWallClock()
  /// Milliseconds on the clock a ring's length is also measured on, so that a wall clock set
  /// back does not make it ring longer (`Ringer`); nil: CLOCK_MONOTONIC. Tests that move a
  /// manual wall clock give one that moves with it: a loaded machine then cannot end a ring
  /// before the test has moved time past its end.
  public var monotonicMillis: (@Sendable () -> Int64)?
  /// The zone floating calendar triggers follow, asked again every few seconds and whenever
  /// the wall clock is set; a change re-plans those triggers.
  public var timeZone: @Sendable () -> Zone = SystemTimeZone.current
  /// Where the desktop's own Do Not Disturb (a paused or inhibited notification server) is
  /// read; nil: the freedesktop presenter's session bus when that presenter is on, else none.
  public var desktopQuiet: (any DesktopQuietSource)?
  /// Where peers' processes are looked up to tell a sandboxed app (Flatpak, Snap) from a host
  /// process; tests point it at a fake tree (chimed's `--proc-root`).
  public var procRoot: String = "/proc"
  /// Called on the work pool as an add's attachments start staging, before any file is looked
  /// at. Tests hold it to stop chimed with adds staging and adds waiting for the lane.
  public var beforeStaging: (@Sendable (_ app: String, _ identifier: String) -> Void)?
  /// How long a refused connection waits for its peer's first bytes, to answer in its protocol.
  public var refusalWaitMillis: UInt64 = 1000

  public init() {}
}
