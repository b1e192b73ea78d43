import FoundationEssentials

/// A JSON document, written and read with FoundationEssentials' `JSONEncoder` and
/// `JSONDecoder`. The CLI builds its output as `[String: Any]` trees; Foundation's
/// `JSONSerialization` (and `NSNull`) would link all of Foundation and CoreFoundation into
/// `chime`, whose start-up cost is what every command pays (see Package.swift).
enum JSONValue: Codable, Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case unsigned(UInt64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// JSON `null` in a `[String: Any]` tree (in place of `NSNull`, which only Foundation has).
  struct Null {}

  /// The tree `value` is made of: strings, booleans, integers, floating-point numbers, arrays,
  /// `[String: Any]` dictionaries, `Null` and `JSONValue`; nil when it holds anything else.
  init?(_ value: Any) {
    switch value {
    case let v as JSONValue: self = v
    case is Null: self = .null
    case let v as Bool: self = .bool(v)
    case let v as String: self = .string(v)
    case let v as Substring: self = .string(String(v))
    case let v as Int: self = .int(Int64(v))
    case let v as any BinaryInteger:
      if let i = Int64(exactly: v) { self = .int(i) } else if let u = UInt64(exactly: v) { self = .unsigned(u) } else { return nil }
    case let v as Double: self = .double(v)
    case let v as Float: self = .double(Double(v))
    case let v as [String: Any]:
      var object: [String: JSONValue] = [:]
      for (key, item) in v {
        guard let item = JSONValue(item) else { return nil }
        object[key] = item
      }
      self = .object(object)
    case let v as [Any]:
      var array: [JSONValue] = []
      for item in v {
        guard let item = JSONValue(item) else { return nil }
        array.append(item)
      }
      self = .array(array)
    default: return nil
    }
  }

  /// As a `[String: Any]` tree: `[String: Any]`, `[Any]`, `String`, `Bool`, `Int64`, `UInt64`,
  /// `Double` and `Null`.
  var any: Any {
    switch self {
    case .null: Null()
    case .bool(let v): v
    case .int(let v): v
    case .unsigned(let v): v
    case .double(let v): v
    case .string(let v): v
    case .array(let v): v.map(\.any)
    case .object(let v): v.mapValues(\.any)
    }
  }

  /// The text on one line, keys sorted and `/` unescaped, as `JSONSerialization` wrote it with
  /// `[.sortedKeys, .withoutEscapingSlashes]`; nil for a number JSON cannot hold (NaN, infinity).
  func text() -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// Parses a JSON document (objects, arrays and fragments alike).
  static func parse(_ data: Data) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: data)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let v = try? container.decode(Bool.self) {
      self = .bool(v)
    } else if let v = try? container.decode(Int64.self) {
      self = .int(v)
    } else if let v = try? container.decode(UInt64.self) {
      self = .unsigned(v)
    } else if let v = try? container.decode(Double.self) {
      self = .double(v)
    } else if let v = try? container.decode(String.self) {
      self = .string(v)
    } else if let v = try? container.decode([JSONValue].self) {
      self = .array(v)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let v): try container.encode(v)
    case .int(let v): try container.encode(v)
    case .unsigned(let v): try container.encode(v)
    case .double(let v): try container.encode(v)
    case .string(let v): try container.encode(v)
    case .array(let v): try container.encode(v)
    case .object(let v): try container.encode(v)
    }
  }
}
