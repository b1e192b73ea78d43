import ChimeCore

/// One setting of chimed, as everything outside the server sees it: a key of chimed.toml, the
/// flag of the same name (kebab-case), a line of `--print-config`, an entry of `--help` (and so
/// of the man page, which help2man makes of `--help`). Each is declared once, in `ChimedSettings`,
/// with its type, default, bounds, help and where its value lands in `ServerSettings`; this is
/// the same declaration with the value's type erased, so every key can be listed together.
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

  /// Why a value cannot be used, as the end of an error message after the key and where it
  /// was given (`ChimedConfig` puts those in front).
  struct Invalid: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  /// The longest time a key of seconds (or a seconds flag) takes, about 31 years: chimed
  /// counts each in milliseconds in an Int64 and adds it to clock readings, which a larger
  /// value overflows.
  public static let maximumSeconds: Double = 1_000_000_000

  public let name: String
  public let kind: Kind
  /// The default as the flag or file would give it ("100MB", "2", "info"); nil when there is
  /// none (unset) or it comes from the environment at resolve time (`defaultNote` says how).
  public let defaultText: String?
  /// What `--help` adds to `defaultText`, or says in its place when the default is derived.
  public let defaultNote: String?
  /// Applied by SIGHUP without a restart.
  public let reloadable: Bool
  /// What the setting does, for `--help` and the man page: a phrase, without the default
  /// (`helpText` adds it) or a final period.
  public let help: String
  /// A file or directory: absolute, or `~`/`~/...` expanded with `$HOME`; any other value is
  /// refused (`ConfigPath`). `sound-player` and `present-command` are commands, looked up in
  /// `PATH`, not paths.
  public let isPath: Bool
  /// Checks `text` (nil: unset) against the setting's type and bounds and stores it where the
  /// setting lands.
  let land: @Sendable (_ text: String?, _ settings: inout ServerSettings) throws(Invalid) -> Void

  public static func == (lhs: ConfigKey, rhs: ConfigKey) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// Every key, in the order `--print-config`, `--help` and the man page show them.
  public static var all: [ConfigKey] { ChimedSettings.all }

  public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

  /// The default and reload behaviour as `--help` states them: "default: 4096", "default:
  /// info; reloads on SIGHUP"; nil for a setting unset by default that is not reloadable.
  public var defaultSummary: String? {
    let shown = [defaultText, defaultNote].compactMap { $0 }.joined(separator: ", ")
    let parts = (shown.isEmpty ? [] : ["default: \(shown)"]) + (reloadable ? ["reloads on SIGHUP"] : [])
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// The option's line of `--help`: `help`, then the default in parentheses.
  public var helpText: String { help + (defaultSummary.map { " (\($0))" } ?? "") + "." }
}

/// Where a setting's value goes in `ServerSettings`.
typealias Lands<Value> = any WritableKeyPath<ServerSettings, Value> & Sendable

/// Anything in the list of settings: a typed `Setting` or a key whose default is derived.
protocol DeclaredSetting: Sendable {
  var key: ConfigKey { get }
}

extension ConfigKey: DeclaredSetting {
  var key: ConfigKey { self }
}

/// A setting whose value has a type and a default of that type, declared once in `ChimedSettings`.
/// `ServerLimits` and the other landing types take their defaults from here
/// (`ChimedSettings.maxConnections.defaultValue`), so a default is written in one place.
public struct Setting<Value: Sendable>: DeclaredSetting {
  public let key: ConfigKey
  public let defaultValue: Value

  /// - Parameters:
  ///   - text: the default as the file would give it (nil: unset, as for an optional value).
  ///   - lands: where the value goes in `ServerSettings`.
  ///   - parse: the value of a text (nil: unset), or why it is refused.
  init(_ name: String, _ kind: ConfigKey.Kind, default defaultValue: Value, text: String?, note: String? = nil,
       reloadable: Bool = false, isPath: Bool = false, lands: Lands<Value>,
       help: String, parse: @escaping @Sendable (String?) throws(ConfigKey.Invalid) -> Value) {
    self.defaultValue = defaultValue
    key = ConfigKey(name: name, kind: kind, defaultText: text, defaultNote: note, reloadable: reloadable, help: help,
                    isPath: isPath) { (text, settings) throws(ConfigKey.Invalid) in
      settings[keyPath: lands] = try parse(text)
    }
  }
}

extension ConfigKey {
  /// A path that must be given, its default derived from the environment (`note` says how).
  static func path(_ name: String, note: String, lands: Lands<String>,
                   help: String) -> ConfigKey {
    ConfigKey(name: name, kind: .string, defaultText: nil, defaultNote: note, reloadable: false, help: help,
              isPath: true) { (text, settings) throws(Invalid) in
      guard let text, !text.isEmpty else { throw Invalid("must not be empty") }
      settings[keyPath: lands] = text
    }
  }
}

extension Setting where Value == Int {
  static func integer(_ name: String, default value: Int, minimum: Int, note: String? = nil,
                      lands: Lands<Int>, help: String) -> Setting {
    Setting(name, .integer, default: value, text: String(value), note: note, lands: lands,
            help: help) { (text) throws(ConfigKey.Invalid) in
      guard let text, let int = Int(text.trimmingWhitespace()) else {
        throw ConfigKey.Invalid("\"\(text ?? "")\" is not an integer")
      }
      guard int >= minimum else { throw ConfigKey.Invalid("must be at least \(minimum), got \(int)") }
      return int
    }
  }
}

extension Setting where Value == Int64 {
  /// Bytes, given as "100MB", "1.5GB", "500kB" or an integer (`ChimedConfig.bytes`).
  static func size(_ name: String, default value: Int64, lands: Lands<Int64>,
                   help: String) -> Setting {
    Setting(name, .size, default: value, text: ByteCount.text(value), lands: lands,
            help: help) { (text) throws(ConfigKey.Invalid) in
      guard let bytes = ChimedConfig.bytes(text ?? ""), bytes >= 0 else {
        throw ConfigKey.Invalid("\"\(text ?? "")\" is not a size such as 100MB or 5000000")
      }
      return bytes
    }
  }

  /// Seconds in the file and on the command line (an integer or a decimal), milliseconds where
  /// they land: 0 and up, or above 0 when `positive`, at most `ConfigKey.maximumSeconds`.
  static func seconds(_ name: String, default seconds: Double, positive: Bool = false,
                      lands: Lands<Int64>, help: String) -> Setting {
    let text = seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    return Setting(name, .number, default: Int64(seconds * 1000), text: text, lands: lands,
                   help: help) { (text) throws(ConfigKey.Invalid) in
      guard let text, let double = Double(text.trimmingWhitespace()), double.isFinite else {
        throw ConfigKey.Invalid("\"\(text ?? "")\" is not a number of seconds")
      }
      if positive, double <= 0 { throw ConfigKey.Invalid("must be more than 0 seconds, got \(text)") }
      if !positive, double < 0 { throw ConfigKey.Invalid("must not be negative, got \(text)") }
      if double > ConfigKey.maximumSeconds { throw ConfigKey.Invalid("must be at most 1000000000 seconds, got \(text)") }
      return Int64(double * 1000)
    }
  }
}

extension Setting where Value == String? {
  /// A string that may be unset (empty is unset too); `note` says what unset means.
  static func optional(_ name: String, note: String?, isPath: Bool = false,
                       lands: Lands<String?>, help: String) -> Setting {
    Setting(name, .string, default: nil, text: nil, note: note, isPath: isPath, lands: lands, help: help) { text in
      guard let text, !text.isEmpty else { return nil }
      return text
    }
  }
}

extension Setting {
  /// A string read by `parse` (nil: refused, with `refusal` of the text as the message).
  static func string(_ name: String, default value: Value, text: String, note: String? = nil, reloadable: Bool = false,
                     lands: Lands<Value>, help: String,
                     parse: @escaping @Sendable (String) throws(ConfigKey.Invalid) -> Value) -> Setting {
    Setting(name, .string, default: value, text: text, note: note, reloadable: reloadable, lands: lands,
            help: help) { (text) throws(ConfigKey.Invalid) in try parse(text ?? "") }
  }
}

/// Sizes as `attachment-quota` takes them, in decimal units.
enum ByteCount {
  /// 100_000_000 → "100MB", 1_500_000 → "1500kB"... the largest unit that divides it, else bytes.
  static func text(_ bytes: Int64) -> String {
    for (suffix, scale) in [("GB", Int64(1_000_000_000)), ("MB", 1_000_000), ("kB", 1_000)]
    where bytes > 0 && bytes % scale == 0 {
      return "\(bytes / scale)\(suffix)"
    }
    return String(bytes)
  }
}
