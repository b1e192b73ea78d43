/// chimed's command-line options: every setting (`ChimedSettings.all`) is a flag of the same name, its
/// help the declaration's (its value as text, checked with the file's values), plus a few of the
/// command line's own.
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
  ] + ConfigKey.all.map { ChimedOption($0.name, .setting, $0.helpText) } + [
    // Seconds one thumbnail render may take before the helper is killed; for tests.
    ChimedOption("thumbnail-timeout", .value(.double), nil),
    // Moves chimed's clock by this many seconds; for tests.
    ChimedOption("clock-offset", .value(.double), nil),
    // Where peers' processes are read to tell sandboxed apps; tests give a fake tree.
    ChimedOption("proc-root", .value(.string), nil),
    // Attachment requests staged at once; for the benchmark's comparison.
    ChimedOption("file-lane-width", .value(.integer), nil),
  ]

  public static func named(_ name: String) -> ChimedOption? { all.first { $0.name == name } }
}
