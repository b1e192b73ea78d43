public import ChimeCore

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

  public let socket: String
  public let dataDirectory: String
  public let appsDirectory: String
  public let attachmentQuotaBytes: Int64
  public let maxPendingPerApp: Int
  public let maxConnections: Int
  public let maxCallsPerConnection: Int
  public let maxSubscribers: Int
  public let maxSubscribersPerApp: Int
  public let thumbnailBox: ThumbnailBox
  /// The thumbnail helper's path; nil: looked for beside chimed.
  public let thumbnailer: String?
  public let logLevel: String
  public let maxFrameBytes: Int
  public let missedGraceSeconds: Double
  public let extensionTimeoutSeconds: Double
  public let pushPayloadLimit: Int
  public let serviceExtensionTimeoutSeconds: Double
  public let serviceExtensionGraceSeconds: Double
  public let authorization: AuthorizationPolicy
  public let presenter: String?
  public let presentCommand: String?
  public let presentTimeoutSeconds: Double
  public let soundPlayer: String?
  public let eventRetention: Int

  public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
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
      } else if key == .socket, let env = environment["CHIME_SOCKET"], !env.isEmpty {
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
    case .socket: return derived("XDG_RUNTIME_DIR", SocketPath.resolve(nil, environment: environment, uid: uid))
    case .dataDir: return derived("XDG_STATE_HOME", DataDirectory.resolve(nil, environment: environment, home: home))
    case .appsDir: return derived("XDG_DATA_HOME", AppsDirectory.resolve(nil, environment: environment, home: home))
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
    func value(_ key: ConfigKey) -> (text: String?, prefix: String) {
      let value = values[key.name]!
      return (value.text, value.source.errorPrefix(key))
    }
    func string(_ key: ConfigKey) -> String? {
      guard let text = value(key).text, !text.isEmpty else { return nil }
      return text
    }
    func integer(_ key: ConfigKey, minimum: Int) throws(ConfigError) -> Int {
      let (text, prefix) = value(key)
      guard let text, let int = Int(text.trimmingWhitespace()) else {
        throw ConfigError("\(prefix): \"\(value(key).text ?? "")\" is not an integer")
      }
      guard int >= minimum else { throw ConfigError("\(prefix): must be at least \(minimum), got \(int)") }
      return int
    }
    func seconds(_ key: ConfigKey, positive: Bool = false) throws(ConfigError) -> Double {
      let (text, prefix) = value(key)
      guard let text, let double = Double(text.trimmingWhitespace()), double.isFinite else {
        throw ConfigError("\(prefix): \"\(value(key).text ?? "")\" is not a number of seconds")
      }
      if positive, double <= 0 { throw ConfigError("\(prefix): must be more than 0 seconds, got \(text)") }
      if !positive, double < 0 { throw ConfigError("\(prefix): must not be negative, got \(text)") }
      if double > ConfigKey.maximumSeconds { throw ConfigError("\(prefix): must be at most 1000000000 seconds, got \(text)") }
      return double
    }
    socket = string(.socket) ?? ""
    dataDirectory = string(.dataDir) ?? ""
    appsDirectory = string(.appsDir) ?? ""
    for key in [ConfigKey.socket, .dataDir, .appsDir] where string(key) == nil {
      throw ConfigError("\(value(key).prefix): must not be empty")
    }
    let quota = value(.attachmentQuota)
    guard let bytes = Self.bytes(quota.text ?? ""), bytes >= 0 else {
      throw ConfigError("\(quota.prefix): \"\(quota.text ?? "")\" is not a size such as 100MB or 5000000")
    }
    attachmentQuotaBytes = bytes
    maxPendingPerApp = try integer(.maxPendingPerApp, minimum: 1)
    maxConnections = try integer(.maxConnections, minimum: 1)
    maxCallsPerConnection = try integer(.maxCallsPerConnection, minimum: 1)
    maxSubscribers = try integer(.maxSubscribers, minimum: 1)
    maxSubscribersPerApp = try integer(.maxSubscribersPerApp, minimum: 1)
    let box = value(.thumbnailBox)
    do throws(ChimeError) {
      thumbnailBox = try ThumbnailBox(parsing: box.text ?? "")
    } catch {
      throw ConfigError("\(box.prefix): \(error.message)")
    }
    thumbnailer = string(.thumbnailer)
    let level = value(.logLevel)
    guard let levelText = level.text?.lowercased(), Self.logLevels.contains(levelText) else {
      throw ConfigError("\(level.prefix): unknown log level \"\(level.text ?? "")\" (\(Self.logLevels.joined(separator: ", ")))")
    }
    logLevel = levelText
    maxFrameBytes = try integer(.maxFrameBytes, minimum: 1)
    missedGraceSeconds = try seconds(.missedGrace)
    extensionTimeoutSeconds = try seconds(.extensionTimeout)
    pushPayloadLimit = try integer(.pushPayloadLimit, minimum: 0)
    serviceExtensionTimeoutSeconds = try seconds(.serviceExtensionTimeout)
    serviceExtensionGraceSeconds = try seconds(.serviceExtensionGrace)
    let policy = value(.authorization)
    guard let parsed = AuthorizationPolicy(rawValue: policy.text ?? "") else {
      throw ConfigError("\(policy.prefix): \"\(policy.text ?? "")\" is not allow or ask-denies")
    }
    authorization = parsed
    presenter = string(.presenter)
    presentCommand = string(.presentCommand)
    if case .failure(let error) = PresenterSelection.choose(list: presenter, command: presentCommand, sessionBus: true) {
      let where_ = presenter == nil ? value(.presentCommand).prefix : value(.presenter).prefix
      throw ConfigError("\(where_): \(error.description)")
    }
    presentTimeoutSeconds = try seconds(.presentTimeout, positive: true)
    soundPlayer = string(.soundPlayer)
    eventRetention = try integer(.eventRetention, minimum: 1)
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
