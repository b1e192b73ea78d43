import ChimeCore

/// Where a setting's value came from, for `--print-config` and error messages.
public enum ConfigSource: Hashable, Sendable, CustomStringConvertible {
  case defaultValue
  /// The default, derived from an environment variable (XDG base directories).
  case derivedDefault(variable: String)
  case file(path: String, line: Int)
  case environment(String)
  case flag

  public var description: String {
    switch self {
    case .defaultValue: return "default"
    case .derivedDefault(let variable): return "default from env \(variable)"
    case .file(_, let line): return "file:\(line)"
    case .environment(let name): return "env \(name)"
    case .flag: return "flag"
    }
  }

  /// The prefix of an error about a value from here: "flag --key", "env NAME", "file:LINE: key".
  func errorPrefix(_ key: ConfigKey) -> String {
    switch self {
    case .flag: return "--\(key.name)"
    case .environment(let name): return "\(name) (\(key.name))"
    case .file(let path, let line): return "\(path):\(line): \(key.name)"
    case .defaultValue, .derivedDefault: return "default \(key.name)"
    }
  }
}

/// chimed's settings after precedence (flags > environment > file > defaults) and validation,
/// each with where it came from. Pure: the environment and home are given.
public struct ChimedConfig: Equatable, Sendable {
  public struct Value: Equatable, Sendable {
    /// nil: unset (e.g. no present-command).
    public let text: String?
    public let source: ConfigSource
  }

  /// Every key of `ConfigKey.all`.
  public let values: [String: Value]
  /// The file that was read, if any.
  public let filePath: String?

  /// Every value, typed, where its `ChimedSettings` declaration lands.
  public let settings: ServerSettings

  /// Merges `flags` (key name → text as given on the command line), the environment, `file` and
  /// the defaults, then checks every value.
  ///
  /// Path settings (`ConfigKey.isPath`) must be absolute or start with `~` (`ConfigPath`),
  /// expanded with the environment's `HOME`.
  ///
  /// - Throws: a message naming the key and where the bad value was given (file and line, flag
  ///   or variable).
  public static func resolve(flags: [String: String], file: ConfigFile?, environment: [String: String],
                             home: String, uid: UInt32) throws(ConfigError) -> ChimedConfig {
    var values: [String: Value] = [:]
    for key in ConfigKey.all {
      if let text = flags[key.name] {
        values[key.name] = Value(text: text, source: .flag)
      } else if key == ChimedSettings.socket, let env = environment["CHIME_SOCKET"], !env.isEmpty {
        values[key.name] = Value(text: env, source: .environment("CHIME_SOCKET"))
      } else if let entry = file?.entries[key.name], let file {
        values[key.name] = Value(text: entry.text, source: .file(path: file.path, line: entry.line))
      } else {
        values[key.name] = defaultValue(key, environment: environment, home: home, uid: uid)
      }
    }
    return try ChimedConfig(values: values, filePath: file?.path, home: environment["HOME"])
  }

  static func defaultValue(_ key: ConfigKey, environment: [String: String], home: String, uid: UInt32) -> Value {
    func derived(_ variable: String, _ text: String) -> Value {
      // Counted only when it moved the default: the resolvers ignore a relative one.
      let set = (environment[variable] ?? "").hasPrefix("/")
      return Value(text: text, source: set ? .derivedDefault(variable: variable) : .defaultValue)
    }
    switch key {
    case ChimedSettings.socket: return derived("XDG_RUNTIME_DIR", SocketPath.resolve(nil, environment: environment, uid: uid))
    case ChimedSettings.dataDir: return derived("XDG_STATE_HOME", DataDirectory.resolve(nil, environment: environment, home: home))
    case ChimedSettings.appsDir: return derived("XDG_DATA_HOME", AppsDirectory.resolve(nil, environment: environment, home: home))
    default: return Value(text: key.defaultText, source: .defaultValue)
    }
  }

  init(values given: [String: Value], filePath: String?, home: String?) throws(ConfigError) {
    var values = given
    // Paths made absolute first, so the settings, `--print-config` and reload's comparisons
    // all see the path chimed uses.
    for key in ConfigKey.all where key.isPath {
      guard let value = values[key.name], let text = value.text, !text.isEmpty else { continue }
      do throws(ConfigPath.Refusal) {
        values[key.name] = Value(text: try ConfigPath.resolve(text, home: home), source: value.source)
      } catch {
        throw ConfigError("\(value.source.errorPrefix(key)): \(error.message)")
      }
    }
    self.values = values
    self.filePath = filePath
    func prefix(_ key: ConfigKey) -> String { values[key.name]!.source.errorPrefix(key) }
    var settings = ServerSettings(paths: ServerPaths(socketPath: "", dataDirectory: "", appsDirectory: ""))
    for key in ConfigKey.all {
      do throws(ConfigKey.Invalid) {
        try key.land(values[key.name]!.text, &settings)
      } catch {
        throw ConfigError("\(prefix(key)): \(error.message)")
      }
    }
    // The one check across keys: a presenter list naming command needs a present-command.
    let presentation = settings.presentation
    if case .failure(let error) = PresenterSelection.choose(list: presentation.presenter, command: presentation.command, sessionBus: true) {
      let where_ = presentation.presenter == nil ? prefix(ChimedSettings.presentCommand.key) : prefix(ChimedSettings.presenter.key)
      throw ConfigError("\(where_): \(error.description)")
    }
    self.settings = settings
  }

  /// "100MB", "1.5GB", "500kB", "5000000" → bytes (decimal units, as the attachment limits).
  public static func bytes(_ text: String) -> Int64? {
    let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("kB", 1e3), ("B", 1)]
    let trimmed = text.trimmingWhitespace()
    for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
      guard let value = Double(trimmed.dropLast(suffix.count).trimmingWhitespace()), value.isFinite, value >= 0 else { return nil }
      return Int64(exactly: (value * scale).rounded())
    }
    return Int64(trimmed)
  }

  /// `--print-config`: one `key = value  # source` line per key, TOML that could be pasted into
  /// chimed.toml (unset keys commented out).
  public func printed() -> String {
    var lines = ["# chimed effective configuration (file: \(filePath ?? "none"))"]
    for key in ConfigKey.all {
      let value = values[key.name]!
      let reload = key.reloadable ? ", reloads on SIGHUP" : ""
      if let text = value.text {
        lines.append("\(key.name) = \(Self.toml(text, kind: key.kind))  # \(value.source)\(reload)")
      } else {
        lines.append("# \(key.name) (unset)  # \(value.source)\(reload)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func toml(_ text: String, kind: ConfigKey.Kind) -> String {
    switch kind {
    case .integer, .number: return text
    case .size where Int64(text) != nil: return text
    case .string, .size:
      var escaped = ""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\t": escaped += "\\t"
        default: escaped.unicodeScalars.append(scalar)
        }
      }
      return "\"\(escaped)\""
    }
  }

  /// The reloadable settings that differ from `other`, as "key: old → new" lines.
  public func reloadableChanges(from other: ChimedConfig) -> [String] {
    ConfigKey.all.filter(\.reloadable).compactMap { key in
      let old = other.values[key.name]?.text, new = values[key.name]?.text
      return old == new ? nil : "\(key.name): \(old ?? "unset") → \(new ?? "unset")"
    }
  }

  /// The settings that differ from `other` but need a restart to apply.
  public func restartOnlyChanges(from other: ChimedConfig) -> [String] {
    ConfigKey.all.filter { !$0.reloadable }.compactMap { key in
      other.values[key.name]?.text == values[key.name]?.text ? nil : key.name
    }
  }
}
