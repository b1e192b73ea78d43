/// One D-Bus value as a tree, read from or written to a message by `BusMessage`. The argument
/// decoder (`DBusArguments`) and the record encoder (`DBusRecords`) work on these, so they are
/// pure and testable without a bus.
indirect enum BusValue: Hashable, Sendable {
  case boolean(Bool)
  /// `n`, `i`, `x`.
  case signed(Int64, type: Character)
  /// `y`, `q`, `u`, `t`.
  case unsigned(UInt64, type: Character)
  case double(Double)
  /// `s`, `o`, `g`.
  case string(String, type: Character)
  /// An array of values of one type, whose signature is `element` (kept for empty arrays).
  case array(element: String, [BusValue])
  /// A dictionary entry (`{kv}`), only inside an array.
  case entry(BusValue, BusValue)
  case structure([BusValue])
  case variant(BusValue)

  /// The value's D-Bus signature.
  var signature: String {
    switch self {
    case .boolean: "b"
    case .signed(_, let type), .unsigned(_, let type), .string(_, let type): String(type)
    case .double: "d"
    case .array(let element, _): "a" + element
    case .entry(let key, let value): "{" + key.signature + value.signature + "}"
    case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
    case .variant: "v"
    }
  }

  // MARK: Building

  static func string(_ s: String) -> BusValue { .string(s, type: "s") }
  static func int32(_ v: Int32) -> BusValue { .signed(Int64(v), type: "i") }
  static func int64(_ v: Int64) -> BusValue { .signed(v, type: "x") }
  static func uint32(_ v: UInt32) -> BusValue { .unsigned(UInt64(v), type: "u") }
  static func strings(_ items: [String]) -> BusValue { .array(element: "s", items.map { .string($0) }) }

  /// An `a{sv}` of the pairs, in their order.
  static func vardict(_ pairs: [(String, BusValue)]) -> BusValue {
    .array(element: "{sv}", pairs.map { .entry(.string($0.0), .variant($0.1)) })
  }

  /// An `aa{sv}`.
  static func vardicts(_ dicts: [[(String, BusValue)]]) -> BusValue {
    .array(element: "a{sv}", dicts.map { vardict($0) })
  }
}
