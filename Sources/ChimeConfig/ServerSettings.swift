public import ChimeCore
import ChimeSystem

/// What chimed's settings resolve to, typed: where each `ChimedSettings` declaration lands. The
/// server takes `paths`, `limits` and `policy` as they are (`ServerConfiguration`); chimed
/// turns `presentation` into the presenters it runs (that needs the session bus, known only at
/// start) and applies `logLevel` to its logging.
public struct ServerSettings: Equatable, Sendable {
  public var paths: ServerPaths
  public var limits = ServerLimits()
  public var policy = ServerPolicy()
  public var presentation = PresentationSettings()
  /// One of `ChimedSettings.logLevels`.
  public var logLevel: String = ChimedSettings.logLevel.defaultValue

  public init(paths: ServerPaths) {
    self.paths = paths
  }
}

/// Where chimed's files are.
public struct ServerPaths: Equatable, Sendable {
  /// Unix socket path (at most 107 bytes).
  public var socketPath: String
  /// Directory holding `chime.db` (created 0700).
  public var dataDirectory: String
  /// Where apps' default layouts live (`<dir>/<app id>/container`, `.../bundle`).
  public var appsDirectory: String
  /// The `chime-thumbnail` program that renders thumbnails; nil: the one beside this
  /// executable, else in `../libexec/chime` (`ThumbnailHelper.locate`). When none is found
  /// thumbnails are off, with one warning at start-up.
  public var thumbnailer: String?

  /// `appsDirectory` defaults to the XDG one of this process's environment.
  public init(socketPath: String, dataDirectory: String, appsDirectory: String? = nil, thumbnailer: String? = nil) {
    self.socketPath = socketPath
    self.dataDirectory = dataDirectory
    self.appsDirectory = appsDirectory ?? AppsDirectory.resolve()
    self.thumbnailer = thumbnailer
  }
}

/// The numbers that bound what chimed serves, keeps and waits for. Those with a key of
/// chimed.toml default to its declaration in `ChimedSettings`; the rest are the server's own
/// (tests shrink some of them to reach a limit quickly).
public struct ServerLimits: Equatable, Sendable {
  public var maxFrameBytes: Int = ChimedSettings.maxFrameBytes.defaultValue
  /// Connections served at once; one more is told TOO_MANY_CONNECTIONS and closed.
  public var maxConnections: Int = ChimedSettings.maxConnections.defaultValue
  /// Calls in flight on one connection; one more is answered TOO_MANY_CALLS.
  public var maxCallsPerConnection: Int = ChimedSettings.maxCallsPerConnection.defaultValue
  /// Subscribe streams open at once, all apps together; one more is answered TOO_MANY_SUBSCRIBERS.
  public var maxSubscribers: Int = ChimedSettings.maxSubscribers.defaultValue
  /// Subscribe streams one app may hold open; one more is answered TOO_MANY_SUBSCRIBERS.
  public var maxSubscribersPerApp: Int = ChimedSettings.maxSubscribersPerApp.defaultValue
  /// Pending requests one app may hold; an add of a new identifier past it is PENDING_LIMIT.
  public var maxPendingPerApp: Int = ChimedSettings.maxPendingPerApp.defaultValue
  /// Bytes of attachments one app may keep in the store.
  public var attachmentQuotaBytes: Int64 = ChimedSettings.attachmentQuota.defaultValue
  /// Stored events kept for resuming subscribers.
  public var eventRetention: Int = ChimedSettings.eventRetention.defaultValue
  /// The largest pushed payload accepted.
  public var pushPayloadMaxBytes: Int = ChimedSettings.pushPayloadLimit.defaultValue
  /// A fire later than this after its due instant is marked missed (and follows the
  /// request's missed-fire policy).
  public var missedGraceMillis: Int64 = ChimedSettings.missedGrace.defaultValue
  /// A calendar alarm missed by less than this is still delivered (marked missed); older ones
  /// are summed up in one notification per calendar.
  public var calendarMissedGraceMillis: Int64 = ChimedSettings.calendarMissedGrace.defaultValue
  /// How long a response waits for a content extension's answer before chimed acts on it as if
  /// there were no extension (measured on the server's clock).
  public var extensionAnswerTimeoutMillis: Int64 = ChimedSettings.extensionTimeout.defaultValue
  /// How long a service extension has (on the server's clock) before it is told time will
  /// expire, then the grace for its best attempt.
  public var serviceExtensionTimeoutMillis: Int64 = ChimedSettings.serviceExtensionTimeout.defaultValue
  public var serviceExtensionGraceMillis: Int64 = ChimedSettings.serviceExtensionGrace.defaultValue
  /// The longest a `RequestAuthorization` under the policy `ask` waits for the user's answer
  /// (a sooner call deadline ends it earlier). Below D-Bus's usual 25 s method-call timeout.
  public var authorizationPromptWaitMillis: Int64 = ChimedSettings.authorizationPromptWait.defaultValue

  // Not settings of chimed.toml.

  /// A connection whose unread replies exceed this is closed.
  public var maxQueuedWriteBytes: Int = 8 << 20
  /// Schedule keys held in memory (the window; at most about twice this many).
  public var windowCapacity: Int = 1024
  /// A store file up to this size is checked whole before serving; a larger one right after
  /// (damage found then stops the daemon with STORE_DAMAGED), so restarts stay fast.
  public var storeCheckAtOpenLimitBytes: Int64 = 32 << 20
  /// How long calls must have stopped before freed heap memory is handed back (`IdleTrim`).
  public var idleTrimMillis: UInt64 = 1000
  /// How long one thumbnail render may run before the helper is killed (chimed's hidden
  /// `--thumbnail-timeout`, for tests).
  public var thumbnailTimeoutMillis: Int = 10_000
  /// Attachment requests staged at once (inspection and copying on the work pool); the rest
  /// wait in order, so the pool keeps room for commits and reads (chimed's hidden
  /// `--file-lane-width`, for the benchmark's comparison).
  public var fileLaneWidth: Int = 2

  public init() {}
}

/// How chimed answers apps and shapes what it keeps.
public struct ServerPolicy: Equatable, Sendable {
  /// What an app's first authorization request is answered, and whether an app that never
  /// asked may post.
  public var authorization: AuthorizationPolicy = ChimedSettings.authorization.defaultValue
  /// The box attachment thumbnails are scaled to fit, keeping their aspect ratio.
  public var thumbnailBox: ThumbnailBox = ChimedSettings.thumbnailBox.defaultValue

  public init() {}
}

/// The presentation settings as given; chimed chooses the presenters from them
/// (`PresenterSelection`, which needs to know whether there is a session bus).
public struct PresentationSettings: Equatable, Sendable {
  /// `presenter`: a comma-separated list; nil: chosen by what is there.
  public var presenter: String?
  /// `present-command`: the command presenter's program.
  public var command: String?
  public var commandTimeoutMillis: Int64 = ChimedSettings.presentTimeout.defaultValue
  /// `sound-player`: a program, "none", or nil for the default choice.
  public var soundPlayer: String?

  public init() {}
}
