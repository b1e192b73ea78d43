public import ChimeCore
import ChimeSystem
public import Logging

/// Everything the daemon needs to start. `chimed` fills it from flags; tests fill it with a
/// temporary directory and a `ManualWallClock`.
public struct ServerConfiguration: Sendable {
  /// Unix socket path (at most 107 bytes).
  public var socketPath: String
  /// Directory holding `chime.db` (created 0700).
  public var dataDirectory: String
  /// What `GetServerInfo` reports as the version (chimed sets its build's, with the revision).
  public var version: String = ChimeVersion.string
  public var maxFrameBytes: Int = Limits.maxFrameBytesDefault
  /// A connection whose unread replies exceed this is closed.
  public var maxQueuedWriteBytes: Int = 8 << 20
  public var clock: any WallClock = SystemWallClock()
  /// The zone floating calendar triggers follow, asked again every few seconds and whenever
  /// the wall clock is set; a change re-plans those triggers.
  public var timeZone: @Sendable () -> Zone = SystemTimeZone.current
  /// A fire later than this after its due instant is marked missed (and follows the
  /// request's missed-fire policy).
  public var missedGraceMillis: Int64 = 2_000
  /// Schedule keys held in memory (the window; at most about twice this many).
  public var windowCapacity: Int = 1024
  /// Stored events kept for resuming subscribers.
  public var eventRetention: Int = 50_000
  /// A store file up to this size is checked whole before serving; a larger one right after
  /// (damage found then stops the daemon with STORE_DAMAGED), so restarts stay fast.
  public var storeCheckAtOpenLimitBytes: Int64 = 32 << 20
  /// How long calls must have stopped before freed heap memory is handed back (`IdleTrim`).
  public var idleTrimMillis: UInt64 = 1000
  /// Where apps' default layouts live (`<dir>/<app id>/container`, `.../bundle`).
  public var appsDirectory: String = AppsDirectory.resolve()
  /// Bytes of attachments one app may keep in the store.
  public var attachmentQuotaBytes: Int64 = Limits.attachmentQuotaDefault
  /// Where peers' processes are looked up to tell a sandboxed app (Flatpak, Snap) from a host
  /// process; tests point it at a fake tree.
  public var procRoot: String = "/proc"
  /// Where the desktop's own Do Not Disturb (a paused or inhibited notification server) is
  /// read; nil: the freedesktop presenter's session bus when that presenter is on, else none.
  public var desktopQuiet: (any DesktopQuietSource)?
  /// Where the D-Bus API is served (the session bus, in chimed); nil: it is not.
  public var dbus: DBusConfiguration?
  /// Connections served at once; one more is told TOO_MANY_CONNECTIONS and closed.
  public var maxConnections: Int = 4096
  /// Calls in flight on one connection; one more is answered TOO_MANY_CALLS.
  public var maxCallsPerConnection: Int = 4096
  /// Subscribe streams open at once, all apps together; one more is answered TOO_MANY_SUBSCRIBERS.
  /// 4096, as many as connections: a desktop's few hundred apps with a watcher or two each stay
  /// far below it, while a client leaking streams is stopped at a few MiB of state.
  public var maxSubscribers: Int = 4096
  /// Subscribe streams one app may hold open; one more is answered TOO_MANY_SUBSCRIBERS. A
  /// quarter of the total, so one app leaking streams leaves room for every other.
  public var maxSubscribersPerApp: Int = 1024
  /// Pending requests one app may hold; an add of a new identifier past it is PENDING_LIMIT.
  public var maxPendingPerApp: Int = Limits.pendingPerAppDefault
  /// The box attachment thumbnails are scaled to fit, keeping their aspect ratio.
  public var thumbnailBox: ThumbnailBox = .default
  /// The `chime-thumbnail` program that renders thumbnails (`--thumbnailer`); nil: the one
  /// beside this executable, else in `../libexec/chime` (`ThumbnailHelper.locate`). When none
  /// is found thumbnails are off, with one warning at start-up.
  public var thumbnailer: String?
  /// How long one thumbnail render may run before the helper is killed.
  public var thumbnailTimeoutMillis: Int = 10_000
  /// Attachment requests staged at once (inspection and copying on the work pool); the rest
  /// wait in order, so the pool keeps room for commits and reads.
  public var fileLaneWidth: Int = 2
  /// Called on the work pool as an add's attachments start staging, before any file is looked
  /// at. Tests hold it to stop chimed with adds staging and adds waiting for the lane.
  public var beforeStaging: (@Sendable (_ app: String, _ identifier: String) -> Void)?
  /// How long a response waits for a content extension's answer before chimed acts on it as if
  /// there were no extension (measured on `clock`).
  public var extensionAnswerTimeoutMillis: Int64 = 5_000
  /// Pushed notifications: the payload limit, and how long a service extension has (on
  /// `clock`) before it is told time will expire, then the grace for its best attempt.
  public var pushPayloadMaxBytes: Int = PushPayload.maxBytesDefault
  public var serviceExtensionTimeoutMillis: Int64 = 30_000
  public var serviceExtensionGraceMillis: Int64 = 1_000
  /// What an app's first authorization request is answered, and whether an app that never
  /// asked may post (`chimed --authorization allow|ask-denies`).
  public var authorizationPolicy: AuthorizationPolicy = .allow
  /// Where deliveries are shown and whether Chime plays their sounds, besides the log.
  public var presentation = PresentationConfiguration()
  public var logger: Logger
  /// A Unix stream socket already bound and listening, to serve instead of binding
  /// `socketPath` (socket activation: the service manager owns the socket file, so chimed
  /// neither prepares nor removes it). `socketPath` still names it in logs.
  public var inheritedListener: Int32?
  /// Called once, on the loop, when a graceful shutdown begins (chimed tells the service
  /// manager it is stopping).
  public var onStopping: (@Sendable () -> Void)?
  /// When set, the daemon only answers: every call (socket or in-process) ends with this error,
  /// and no store is opened, nothing is scheduled or presented. chimed serves this way when its
  /// configuration is invalid under socket activation, so clients read the cause rather than a
  /// closed connection.
  public var refuseEveryCall: ChimeError?
  /// With `refuseEveryCall`: refuse on the session bus only, with no socket at all (chimed
  /// started by D-Bus activation without a service manager, whose configured socket may be
  /// what is invalid).
  public var refuseOnBusOnly = false

  public init(socketPath: String, dataDirectory: String, logger: Logger = Logger(label: "chimed")) {
    self.socketPath = socketPath
    self.dataDirectory = dataDirectory
    self.logger = logger
  }
}
