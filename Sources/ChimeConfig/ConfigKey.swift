/// One setting of chimed: a key of chimed.toml and the flag of the same name (kebab-case).
public struct ConfigKey: Hashable, Sendable {
  /// What a value in the file must be.
  public enum Kind: Hashable, Sendable {
    /// A TOML string.
    case string
    /// A TOML integer.
    case integer
    /// A TOML integer or float (seconds).
    case number
    /// A TOML string such as "100MB" or an integer of bytes.
    case size

    /// What the value is in TOML terms, for help and man pages.
    public var tomlName: String {
      switch self {
      case .string: return "string"
      case .integer: return "integer"
      case .number: return "seconds"
      case .size: return "size"
      }
    }
  }

  public let name: String
  /// The longest time a key of seconds (or a seconds flag) takes, about 31 years: chimed
  /// counts each in milliseconds in an Int64 and adds it to clock readings, which a larger
  /// value overflows.
  public static let maximumSeconds: Double = 1_000_000_000

  public let kind: Kind
  /// The value when neither flag, environment nor file gives one (nil: none, or derived from
  /// the environment at resolve time).
  public let defaultText: String?
  /// Applied by SIGHUP without a restart.
  public let reloadable: Bool
  /// One line for `--print-config` and the man page.
  public let summary: String

  init(_ name: String, _ kind: Kind, default defaultText: String?, reloadable: Bool = false, _ summary: String) {
    self.name = name
    self.kind = kind
    self.defaultText = defaultText
    self.reloadable = reloadable
    self.summary = summary
  }
}

extension ConfigKey {
  public static let socket = ConfigKey("socket", .string, default: nil,
    "Unix socket path (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock)")
  public static let dataDir = ConfigKey("data-dir", .string, default: nil,
    "directory for chime.db (default: $XDG_STATE_HOME/chime or ~/.local/state/chime)")
  public static let appsDir = ConfigKey("apps-dir", .string, default: nil,
    "directory of apps' default layouts (default: $XDG_DATA_HOME/chime/apps or ~/.local/share/chime/apps)")
  public static let attachmentQuota = ConfigKey("attachment-quota", .size, default: "100MB",
    "bytes of attachments each app may keep, e.g. 100MB, 1.5GB or 5000000")
  public static let maxPendingPerApp = ConfigKey("max-pending-per-app", .integer, default: "1000000",
    "pending requests each app may hold")
  public static let maxConnections = ConfigKey("max-connections", .integer, default: "4096",
    "connections served at once; one more gets RESOURCE_EXHAUSTED TOO_MANY_CONNECTIONS")
  public static let maxCallsPerConnection = ConfigKey("max-calls-per-connection", .integer, default: "4096",
    "calls in flight on one connection; one more gets RESOURCE_EXHAUSTED TOO_MANY_CALLS")
  public static let maxSubscribers = ConfigKey("max-subscribers", .integer, default: "4096",
    "Subscribe streams open at once, all apps together; one more gets RESOURCE_EXHAUSTED TOO_MANY_SUBSCRIBERS")
  public static let maxSubscribersPerApp = ConfigKey("max-subscribers-per-app", .integer, default: "1024",
    "Subscribe streams one app may hold open; one more gets RESOURCE_EXHAUSTED TOO_MANY_SUBSCRIBERS")
  public static let thumbnailBox = ConfigKey("thumbnail-box", .string, default: "300x169",
    "the box attachment thumbnails are scaled to fit, WxH pixels")
  public static let thumbnailer = ConfigKey("thumbnailer", .string, default: nil,
    "the chime-thumbnail program that renders thumbnails (default: beside chimed, else ../libexec/chime/; none found: thumbnails off)")
  public static let logLevel = ConfigKey("log-level", .string, default: "info", reloadable: true,
    "trace, debug, info, notice, warning, error or critical")
  public static let maxFrameBytes = ConfigKey("max-frame-bytes", .integer, default: "1048576",
    "largest frame accepted, in bytes")
  public static let missedGrace = ConfigKey("missed-grace", .number, default: "2",
    "seconds after its due time past which a fire is marked missed")
  public static let extensionTimeout = ConfigKey("extension-timeout", .number, default: "5",
    "seconds a response waits for a content extension's answer")
  public static let pushPayloadLimit = ConfigKey("push-payload-limit", .integer, default: "4096",
    "largest pushed payload accepted, in bytes")
  public static let serviceExtensionTimeout = ConfigKey("service-extension-timeout", .number, default: "30",
    "seconds a service extension has to replace a mutable push's content")
  public static let serviceExtensionGrace = ConfigKey("service-extension-grace", .number, default: "1",
    "seconds a service extension then has to send its best attempt")
  public static let authorization = ConfigKey("authorization", .string, default: "allow",
    "how an app's first authorization request is answered: allow or ask-denies")
  public static let presenter = ConfigKey("presenter", .string, default: nil,
    "freedesktop, command, none, or a comma-separated list (default: freedesktop when a session bus is found, plus command when present-command is set)")
  public static let presentCommand = ConfigKey("present-command", .string, default: nil,
    "the program the command presenter runs for each delivery (notification as JSON on stdin)")
  public static let presentTimeout = ConfigKey("present-timeout", .number, default: "10",
    "seconds the presenter command may run before it is killed")
  public static let eventRetention = ConfigKey("event-retention", .integer, default: "50000",
    "stored events kept for subscribers resuming with a cursor (pruned in steps: up to 1/64 more wait for the next)")
  public static let soundPlayer = ConfigKey("sound-player", .string, default: nil,
    "program that plays a sound file given as its last argument, or none (default: libcanberra, else pw-play, paplay, aplay)")

  /// The keys whose value is a file or directory: absolute, or `~`/`~/...` expanded with
  /// `$HOME`; any other value is refused (`ConfigPath`). `sound-player` and `present-command`
  /// are commands, looked up in `PATH`, not paths.
  public var isPath: Bool { [ConfigKey.socket, .dataDir, .appsDir, .thumbnailer].contains(self) }

  /// Every key, in the order `--print-config` shows them.
  public static let all: [ConfigKey] = [
    .socket, .dataDir, .appsDir, .attachmentQuota, .maxPendingPerApp, .maxConnections, .maxCallsPerConnection,
    .maxSubscribers, .maxSubscribersPerApp,
    .thumbnailBox, .thumbnailer, .logLevel, .maxFrameBytes, .missedGrace, .extensionTimeout, .pushPayloadLimit, .serviceExtensionTimeout,
    .serviceExtensionGrace, .authorization, .presenter, .presentCommand, .presentTimeout, .soundPlayer,
    .eventRetention,
  ]

  public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }
}
