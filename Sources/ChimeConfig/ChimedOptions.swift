/// chimed's command-line options: every `ConfigKey` is a flag of the same name (its value as
/// text, checked with the file's values), plus a few of the command line's own.
public struct ChimedOption: Sendable {
  public enum Kind: Sendable, Equatable {
    /// Takes no value.
    case flag
    /// A setting of `ConfigKey.all` of this name.
    case setting
    /// Takes a value of its own (`--config`, and the hidden options for tests).
    case value(Value)
  }

  /// What a value of `Kind.value` must be.
  public enum Value: Sendable, Equatable { case string, double, integer }

  /// The long name, without dashes.
  public let name: String
  public let kind: Kind
  /// For `--help`; nil: hidden (for tests and the benchmark).
  public let help: String?

  /// `--name <name>` for an option with a value, `--name` for a flag.
  public var label: String { kind == .flag ? "--\(name)" : "--\(name) <\(name)>" }
  /// How errors name it: hidden options without their value's placeholder.
  var errorLabel: String { help == nil ? "--\(name)" : label }

  init(_ name: String, _ kind: Kind, _ help: String?) {
    self.name = name
    self.kind = kind
    self.help = help
  }
}

extension ChimedOption {
  /// In the order `--help` lists them.
  public static let all: [ChimedOption] = [
    ChimedOption("config", .value(.string), "The configuration file (default: $XDG_CONFIG_HOME/chime/chimed.toml or ~/.config/chime/chimed.toml; a missing default file is fine). Its keys are the names of the flags below; flags win over the environment, which wins over the file."),
    ChimedOption("print-config", .flag, "Print the effective configuration, with where each value came from, and exit."),
    ChimedOption("compact-store", .flag, "Rebuild the store (chime.db in the data directory) in place and exit, with chimed stopped: gives back the space of removed requests and pruned events, and gives a store made before 2 KiB pages the smaller page size (a lone add's commit then syncs half the bytes)."),
    setting(.socket, "Unix socket path (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock)."),
    setting(.dataDir, "Directory for chime.db (default: $XDG_STATE_HOME/chime or ~/.local/state/chime)."),
    setting(.appsDir, "Directory of apps' default layouts (default: $XDG_DATA_HOME/chime/apps or ~/.local/share/chime/apps)."),
    setting(.attachmentQuota, "Bytes of attachments each app may keep in the store, e.g. 100MB, 1.5GB or 5000000 (MB = 10^6 bytes; default: 100MB)."),
    setting(.maxPendingPerApp, "Pending requests each app may hold; an add of a new identifier past it is refused with PENDING_LIMIT (default: 1000000)."),
    setting(.maxConnections, "Connections served at once; one more is refused with TOO_MANY_CONNECTIONS (default: 4096)."),
    setting(.maxCallsPerConnection, "Calls in flight on one connection; one more is refused with TOO_MANY_CALLS (default: 4096)."),
    setting(.maxSubscribers, "Subscribe streams open at once, all apps together; one more is refused with TOO_MANY_SUBSCRIBERS (default: 4096)."),
    setting(.maxSubscribersPerApp, "Subscribe streams one app may hold open; one more is refused with TOO_MANY_SUBSCRIBERS (default: 1024)."),
    setting(.thumbnailBox, "The box attachment thumbnails are scaled to fit, WxH pixels (default: 300x169, Apple's thumbnail size)."),
    setting(.thumbnailer, "The chime-thumbnail program that renders attachment thumbnails in a process of its own (default: the one beside chimed, else in ../libexec/chime/; when none is found thumbnails are off, with a warning)."),
    // Seconds one thumbnail render may take before the helper is killed; for tests.
    ChimedOption("thumbnail-timeout", .value(.double), nil),
    setting(.logLevel, "trace, debug, info, notice, warning, error or critical (default: info; reloads on SIGHUP)."),
    setting(.maxFrameBytes, "Largest frame accepted, in bytes (default: 1048576)."),
    setting(.missedGrace, "A fire later than this many seconds after its due time is marked missed (default: 2)."),
    setting(.extensionTimeout, "Seconds a response waits for a content extension's answer before going ahead without it (default: 5)."),
    setting(.pushPayloadLimit, "Largest pushed payload accepted, in bytes (default: 4096, APNs' limit for regular pushes)."),
    setting(.serviceExtensionTimeout, "Seconds a service extension has to replace a mutable push's content before it is told time will expire (default: 30)."),
    setting(.serviceExtensionGrace, "Seconds a service extension then has to send its best attempt before the original is delivered (default: 1)."),
    setting(.authorization, "How an app's first authorization request is answered: allow (what it asks; apps that never asked may post too) or ask-denies (denied until the user runs `chime apps allow ID`; default: allow)."),
    setting(.presenter, "Where deliveries are shown besides the log: freedesktop, command, none, or a comma-separated list (default: freedesktop when a session bus is found, plus command when --present-command is given)."),
    setting(.presentCommand, "The program the command presenter runs for each delivery, with the notification as JSON on stdin."),
    setting(.presentTimeout, "Seconds the presenter command may run before it is killed (the delivery stands; default: 10)."),
    setting(.soundPlayer, "A program (and arguments) that plays a sound file given as its last argument, e.g. pw-play, paplay or aplay; none for silence (default: libcanberra, else the first of pw-play, paplay, aplay found)."),
    setting(.eventRetention, "Stored events kept for subscribers that resume with a cursor (default: 50000)."),
    // Moves chimed's clock by this many seconds; for tests.
    ChimedOption("clock-offset", .value(.double), nil),
    // Where peers' processes are read to tell sandboxed apps; tests give a fake tree.
    ChimedOption("proc-root", .value(.string), nil),
    // Attachment requests staged at once; for the benchmark's comparison.
    ChimedOption("file-lane-width", .value(.integer), nil),
  ]

  static func setting(_ key: ConfigKey, _ help: String) -> ChimedOption { ChimedOption(key.name, .setting, help) }

  public static func named(_ name: String) -> ChimedOption? { all.first { $0.name == name } }
}
