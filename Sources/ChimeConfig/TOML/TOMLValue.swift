/// A TOML 1.0 value, as `TOMLParser` reads it.
public indirect enum TOMLValue: Equatable, Sendable {
  case string(String)
  case integer(Int64)
  case float(Double)
  case boolean(Bool)
  /// `1979-05-27T07:32:00Z`, `1979-05-27 00:32:00-07:00`: a date and time at an offset from UTC.
  case offsetDateTime(TOMLDate, TOMLTime, offsetMinutes: Int)
  /// `1979-05-27T07:32:00`: a date and time in no particular zone.
  case localDateTime(TOMLDate, TOMLTime)
  case localDate(TOMLDate)
  case localTime(TOMLTime)
  case array([TOMLValue])
  case table(TOMLTable)

  /// What the value is, in the words of chimed's errors ("expected a string, got array").
  public var typeName: String {
    switch self {
    case .string: return "string"
    case .integer: return "integer"
    case .float: return "floating-point number"
    case .boolean: return "bool"
    case .offsetDateTime, .localDateTime: return "date-time"
    case .localDate: return "date"
    case .localTime: return "time"
    case .array: return "array"
    case .table: return "table"
    }
  }
}

/// A table: its keys in the order they were first given, each with its value and the line
/// (1-based) where the key first appears (its key/value line, or the table header that made it).
public struct TOMLTable: Equatable, Sendable {
  public struct Entry: Equatable, Sendable {
    public let value: TOMLValue
    public let line: Int
  }

  public private(set) var keys: [String] = []
  public private(set) var entries: [String: Entry] = [:]

  public init() {}

  public subscript(key: String) -> TOMLValue? { entries[key]?.value }

  /// The same keys with the same values, wherever and in whatever order they were written.
  public static func == (a: TOMLTable, b: TOMLTable) -> Bool {
    a.entries.count == b.entries.count && a.entries.allSatisfy { key, entry in b.entries[key]?.value == entry.value }
  }

  mutating func append(_ key: String, _ entry: Entry) {
    if entries.updateValue(entry, forKey: key) == nil { keys.append(key) }
  }
}
