import ChimeCore
import ChimeSystem

/// What is wrong with a configuration: the key and where it was given, so a person can fix it.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// chimed.toml, parsed and type-checked: each key's value as text (the same text its flag
/// takes) and the line it is on.
public struct ConfigFile: Equatable, Sendable {
  public struct Entry: Equatable, Sendable {
    public let text: String
    public let line: Int
  }

  public let path: String
  public let entries: [String: Entry]

  /// `$XDG_CONFIG_HOME/chime/chimed.toml`, else `<home>/.config/chime/chimed.toml`; an
  /// `XDG_CONFIG_HOME` that is not absolute is ignored, as the XDG base directory spec says.
  public static func defaultPath(environment: [String: String], home: String) -> String {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/chime/chimed.toml" }
    return home + "/.config/chime/chimed.toml"
  }

  /// Reads and parses `path`; nil when it does not exist (nothing there, or a file where a
  /// directory on the way should be) and `required` is false.
  public static func load(path: String, required: Bool) throws(ConfigError) -> ConfigFile? {
    let bytes: [UInt8]
    do throws(Errno) {
      bytes = try FileSystem.contents(path)
    } catch {
      if (error == .noSuchFile || error == .notADirectory) && !required { return nil }
      throw ConfigError("\(path): cannot read the configuration file: \(error)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigError("\(path): not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// Parses TOML `text` (`TOMLParser`); every top-level key must be one of `ConfigKey.all` with
  /// a value of its kind. Errors name the file, the line and the key.
  public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
    let table: TOMLTable
    do throws(TOMLError) {
      table = try TOMLParser.parse(text)
    } catch {
      let key = error.key.map { "\($0): " } ?? ""
      throw ConfigError("\(path):\(error.line): \(key)\(error.message) (column \(error.column))")
    }
    var entries: [String: Entry] = [:]
    for name in table.keys {
      let entry = table.entries[name]!
      let prefix = "\(path):\(entry.line): \(name)"
      guard let key = ConfigKey.named(name) else {
        let known = ConfigKey.all.map(\.name).joined(separator: ", ")
        throw ConfigError("\(prefix): unknown key (known keys: \(known))")
      }
      entries[name] = Entry(text: try Self.text(of: entry.value, for: key, prefix: prefix), line: entry.line)
    }
    return ConfigFile(path: path, entries: entries)
  }

  static func text(of value: TOMLValue, for key: ConfigKey, prefix: String) throws(ConfigError) -> String {
    let got = value.typeName
    switch (key.kind, value) {
    case (.string, .string(let string)), (.size, .string(let string)):
      return string
    case (.integer, .integer(let int)), (.number, .integer(let int)), (.size, .integer(let int)):
      return String(int)
    case (.number, .float(let double)):
      return String(double)
    case (.string, _):
      throw ConfigError("\(prefix): expected a string, got \(got)")
    case (.integer, _):
      throw ConfigError("\(prefix): expected an integer, got \(got)")
    case (.number, _):
      throw ConfigError("\(prefix): expected a number of seconds, got \(got)")
    case (.size, _):
      throw ConfigError("\(prefix): expected a size such as \"100MB\" or an integer of bytes, got \(got)")
    }
  }
}
