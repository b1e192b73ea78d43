public import ChimeCore

/// Every setting of chimed, each declared once: its name (the chimed.toml key and the flag),
/// type, default, bounds, help, and where its value lands in `ServerSettings`. The flags
/// (`ChimedOption`), the file's keys (`ConfigFile`), `--print-config`, `--help` and the man
/// page made of it are all read from `all`; `ServerLimits` and the other landing types take
/// their defaults from here.
///
/// A new setting is one declaration here, added to `all`, plus the field it lands in
/// (defaulting to the declaration's `defaultValue`) and the code that reads that field.
public enum ChimedSettings {
  public static let socket: ConfigKey = .path(
    "socket", note: "$CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock", lands: \.paths.socketPath,
    help: "Unix socket path")
  public static let dataDir: ConfigKey = .path(
    "data-dir", note: "$XDG_STATE_HOME/chime or ~/.local/state/chime", lands: \.paths.dataDirectory,
    help: "Directory for chime.db")
  public static let appsDir: ConfigKey = .path(
    "apps-dir", note: "$XDG_DATA_HOME/chime/apps or ~/.local/share/chime/apps", lands: \.paths.appsDirectory,
    help: "Directory of apps' default layouts")
  public static let attachmentQuota: Setting<Int64> = .size(
    "attachment-quota", default: Limits.attachmentQuotaDefault, lands: \.limits.attachmentQuotaBytes,
    help: "Bytes of attachments each app may keep in the store, e.g. 100MB, 1.5GB or 5000000; MB is 10^6 bytes")
  public static let maxPendingPerApp: Setting<Int> = .integer(
    "max-pending-per-app", default: Limits.pendingPerAppDefault, minimum: 1, lands: \.limits.maxPendingPerApp,
    help: "Pending requests each app may hold; an add of a new identifier past it is refused with PENDING_LIMIT")
  public static let maxConnections: Setting<Int> = .integer(
    "max-connections", default: 4096, minimum: 1, lands: \.limits.maxConnections,
    help: "Connections served at once; one more is refused with TOO_MANY_CONNECTIONS")
  public static let maxCallsPerConnection: Setting<Int> = .integer(
    "max-calls-per-connection", default: 4096, minimum: 1, lands: \.limits.maxCallsPerConnection,
    help: "Calls in flight on one connection; one more is refused with TOO_MANY_CALLS")
  /// 4096, as many as connections: a desktop's few hundred apps with a watcher or two each stay
  /// far below it, while a client leaking streams is stopped at a few MiB of state.
  public static let maxSubscribers: Setting<Int> = .integer(
    "max-subscribers", default: 4096, minimum: 1, lands: \.limits.maxSubscribers,
    help: "Subscribe streams open at once, all apps together; one more is refused with TOO_MANY_SUBSCRIBERS")
  /// A quarter of the total, so one app leaking streams leaves room for every other.
  public static let maxSubscribersPerApp: Setting<Int> = .integer(
    "max-subscribers-per-app", default: 1024, minimum: 1, lands: \.limits.maxSubscribersPerApp,
    help: "Subscribe streams one app may hold open; one more is refused with TOO_MANY_SUBSCRIBERS")
  public static let thumbnailBox: Setting<ThumbnailBox> = .string(
    "thumbnail-box", default: ThumbnailBox.default, text: ThumbnailBox.default.description,
    note: "Apple's thumbnail size", lands: \.policy.thumbnailBox,
    help: "The box attachment thumbnails are scaled to fit, WxH pixels") { (text) throws(ConfigKey.Invalid) in
      do throws(ChimeError) { return try ThumbnailBox(parsing: text) } catch { throw ConfigKey.Invalid(error.message) }
    }
  public static let thumbnailer: Setting<String?> = .optional(
    "thumbnailer", note: "the one beside chimed, else in ../libexec/chime/; when none is found thumbnails are off, with a warning",
    isPath: true, lands: \.paths.thumbnailer,
    help: "The chime-thumbnail program that renders attachment thumbnails in a process of its own")
  public static let logLevel: Setting<String> = .string(
    "log-level", default: "info", text: "info", reloadable: true, lands: \.logLevel,
    help: logLevels.dropLast().joined(separator: ", ") + " or " + logLevels[logLevels.count - 1]) { (text) throws(ConfigKey.Invalid) in
      guard logLevels.contains(text.lowercased()) else {
        throw ConfigKey.Invalid("unknown log level \"\(text)\" (\(logLevels.joined(separator: ", ")))")
      }
      return text.lowercased()
    }
  public static let maxFrameBytes: Setting<Int> = .integer(
    "max-frame-bytes", default: Limits.maxFrameBytesDefault, minimum: 1, lands: \.limits.maxFrameBytes,
    help: "Largest frame accepted, in bytes")
  public static let missedGrace: Setting<Int64> = .seconds(
    "missed-grace", default: 2, lands: \.limits.missedGraceMillis,
    help: "A fire later than this many seconds after its due time is marked missed")
  public static let calendarMissedGrace: Setting<Int64> = .seconds(
    "calendar-missed-grace", default: 3600, lands: \.limits.calendarMissedGraceMillis,
    help: "A calendar alarm that fell due while chimed was stopped or the computer slept is still shown, marked missed, if it is less than this many seconds late; older ones are summed up in one notification per calendar")
  public static let extensionTimeout: Setting<Int64> = .seconds(
    "extension-timeout", default: 5, lands: \.limits.extensionAnswerTimeoutMillis,
    help: "Seconds a response waits for a content extension's answer before going ahead without it")
  public static let pushPayloadLimit: Setting<Int> = .integer(
    "push-payload-limit", default: PushPayload.maxBytesDefault, minimum: 0, note: "APNs' limit for regular pushes",
    lands: \.limits.pushPayloadMaxBytes, help: "Largest pushed payload accepted, in bytes")
  public static let serviceExtensionTimeout: Setting<Int64> = .seconds(
    "service-extension-timeout", default: 30, lands: \.limits.serviceExtensionTimeoutMillis,
    help: "Seconds a service extension has to replace a mutable push's content before it is told time will expire")
  public static let serviceExtensionGrace: Setting<Int64> = .seconds(
    "service-extension-grace", default: 1, lands: \.limits.serviceExtensionGraceMillis,
    help: "Seconds a service extension then has to send its best attempt before the original is delivered")
  public static let authorization: Setting<AuthorizationPolicy> = .string(
    "authorization", default: AuthorizationPolicy.allow, text: AuthorizationPolicy.allow.rawValue, lands: \.policy.authorization,
    help: "How an app's first authorization request is answered: allow, what it asks (apps that never asked may post too); ask, the user is shown an \"Allow notifications?\" prompt and the app may not post until they answer; or ask-denies, denied until the user runs `chime apps allow ID`") { (text) throws(ConfigKey.Invalid) in
      guard let policy = AuthorizationPolicy(rawValue: text) else { throw ConfigKey.Invalid("\"\(text)\" is not allow, ask or ask-denies") }
      return policy
    }
  public static let authorizationPromptWait: Setting<Int64> = .seconds(
    "authorization-prompt-wait", default: 20, positive: true, lands: \.limits.authorizationPromptWaitMillis,
    help: "Under --authorization ask, the longest an app's first authorization request waits for the user's answer (less when the call's deadline is sooner); unanswered by then it answers not determined and the answer comes later as an authorization-changed event")
  /// Checked with `present-command` once both are read (`ChimedConfig`).
  public static let presenter: Setting<String?> = .optional(
    "presenter", note: "freedesktop when a session bus is found, plus command when --present-command is given",
    lands: \.presentation.presenter,
    help: "Where deliveries are shown besides the log: freedesktop, command, none, or a comma-separated list")
  public static let presentCommand: Setting<String?> = .optional(
    "present-command", note: nil, lands: \.presentation.command,
    help: "The program the command presenter runs for each delivery, with the notification as JSON on stdin")
  public static let presentTimeout: Setting<Int64> = .seconds(
    "present-timeout", default: 10, positive: true, lands: \.presentation.commandTimeoutMillis,
    help: "Seconds the presenter command may run before it is killed; the delivery stands")
  public static let soundPlayer: Setting<String?> = .optional(
    "sound-player", note: "libcanberra, else the first of pw-play, paplay, aplay found", lands: \.presentation.soundPlayer,
    help: "A program (and arguments) that plays a sound file given as its last argument, e.g. pw-play, paplay or aplay; none for silence")
  public static let eventRetention: Setting<Int> = .integer(
    "event-retention", default: 50_000, minimum: 1, lands: \.limits.eventRetention,
    help: "Stored events kept for subscribers that resume with a cursor; pruned in steps, so up to 1/64 more wait for the next")

  /// The levels `log-level` takes, least severe first.
  public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

  /// Every setting, in the order `--print-config`, `--help` and the man page list them.
  public static let all: [ConfigKey] = ([
    socket, dataDir, appsDir, attachmentQuota, maxPendingPerApp, maxConnections, maxCallsPerConnection,
    maxSubscribers, maxSubscribersPerApp, thumbnailBox, thumbnailer, logLevel, maxFrameBytes, missedGrace,
    calendarMissedGrace, extensionTimeout, pushPayloadLimit, serviceExtensionTimeout, serviceExtensionGrace, authorization, authorizationPromptWait, presenter,
    presentCommand, presentTimeout, soundPlayer, eventRetention,
  ] as [any DeclaredSetting]).map(\.key)
}
