import ChimeCore
import FoundationEssentials
import TOMLKit

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

  /// `$XDG_CONFIG_HOME/chime/chimed.toml`, else `<home>/.config/chime/chimed.toml`.
  public static func defaultPath(environment: [String: String], home: String) -> String {
    if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/chime/chimed.toml" }
    return home + "/.config/chime/chimed.toml"
  }

  /// Reads and parses `path`; nil when it does not exist and `required` is false.
  public static func load(path: String, required: Bool) throws(ConfigError) -> ConfigFile? {
    guard let data = FileManager.default.contents(atPath: path) else {
      if !required && !FileManager.default.fileExists(atPath: path) { return nil }
      throw ConfigError("\(path): cannot read the configuration file")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError("\(path): not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// Parses TOML `text` (TOMLKit); every top-level key must be one of `ConfigKey.all` with a value
  /// of its kind. Errors name the file, the line and the key.
  public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw ConfigError("\(path):\(error.source.begin.line): \(error.description)")
    } catch {
      throw ConfigError("\(path): \(error)")
    }
    var entries: [String: Entry] = [:]
    for name in table.keys.sorted() {
      let line = KeyLines.line(of: name, in: text)
      let prefix = "\(path):\(line): \(name)"
      guard let key = ConfigKey.named(name) else {
        let known = ConfigKey.all.map(\.name).joined(separator: ", ")
        throw ConfigError("\(prefix): unknown key (known keys: \(known))")
      }
      guard let value = table[name] else { continue }
      entries[name] = Entry(text: try Self.text(of: value, for: key, prefix: prefix), line: line)
    }
    return ConfigFile(path: path, entries: entries)
  }

  static func text(of value: any TOMLValueConvertible, for key: ConfigKey, prefix: String) throws(ConfigError) -> String {
    let got = value.type.description
    switch key.kind {
    case .string:
      guard let string = value.string else { throw ConfigError("\(prefix): expected a string, got \(got)") }
      return string
    case .integer:
      guard value.type == .int, let int = value.int else { throw ConfigError("\(prefix): expected an integer, got \(got)") }
      return String(int)
    case .number:
      if value.type == .int, let int = value.int { return String(int) }
      guard value.type == .double, let double = value.double else {
        throw ConfigError("\(prefix): expected a number of seconds, got \(got)")
      }
      return String(double)
    case .size:
      if value.type == .int, let int = value.int { return String(int) }
      guard let string = value.string else {
        throw ConfigError("\(prefix): expected a size such as \"100MB\" or an integer of bytes, got \(got)")
      }
      return string
    }
  }
}

/// The line a top-level key is on. TOMLKit reports positions only for syntax errors, not for
/// values, so this finds the first line (outside multi-line strings) that starts with the key,
/// bare or quoted, followed by `=`, or a `[key]` table header. The document has already parsed.
enum KeyLines {
  static func line(of key: String, in text: String) -> Int {
    var inMultiline: String? = nil
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingWhitespace()
      if let delimiter = inMultiline {
        if line.components(separatedBy: delimiter).count % 2 == 0 { inMultiline = nil }
        continue
      }
      for candidate in [key, "\"\(key)\"", "'\(key)'"] where line.hasPrefix(candidate) {
        let rest = line.dropFirst(candidate.count).trimmingWhitespace()
        if rest.hasPrefix("=") || rest.hasPrefix(".") { return index + 1 }
      }
      if line.hasPrefix("[") {
        let header = line.drop { $0 == "[" }.prefix { $0 != "]" && $0 != "." }.trimmingWhitespace()
        if header == key || header == "\"\(key)\"" { return index + 1 }
      }
      for delimiter in ["\"\"\"", "'''"] where line.components(separatedBy: delimiter).count % 2 == 0 {
        inMultiline = delimiter
        break
      }
    }
    return 0
  }
}
