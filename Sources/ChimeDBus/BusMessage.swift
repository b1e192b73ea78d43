import ChimeCore
internal import CSystemd

/// Reads a message's arguments into `BusValue` trees and appends trees to a message, with
/// sd-bus's non-variadic calls. A message's values are read whole, within a budget of values
/// and a depth, before anything looks at them.
enum BusMessage {
  /// The most values (all levels together) one call's arguments may hold.
  static let valueBudget = 100_000
  /// D-Bus allows 64 levels of containers; Chime's arguments need five.
  static let maxDepth = 32

  /// Every remaining argument of `message`.
  ///
  /// - Throws: INVALID_ARGUMENT when the arguments hold too many values, nest too deep, carry
  ///   a file descriptor, or cannot be read.
  static func readArguments(_ message: OpaquePointer) throws(ChimeError) -> [BusValue] {
    var budget = valueBudget
    var values: [BusValue] = []
    while let value = try read(message, depth: 0, budget: &budget) { values.append(value) }
    return values
  }

  private static func read(_ m: OpaquePointer, depth: Int, budget: inout Int) throws(ChimeError) -> BusValue? {
    var type: CChar = 0
    var contents: UnsafePointer<CChar>?
    let r = sd_bus_message_peek_type(m, &type, &contents)
    guard r >= 0 else { throw unreadable(r) }
    if r == 0 { return nil }
    budget -= 1
    guard budget >= 0 else { throw ChimeError(.invalidArgument, "the arguments hold more than \(valueBudget) values") }
    let code = Character(Unicode.Scalar(UInt8(bitPattern: type)))
    switch code {
    case "a", "r", "e", "v":
      guard depth < maxDepth else { throw ChimeError(.invalidArgument, "the arguments nest deeper than \(maxDepth) levels") }
      let inner = contents.map { String(cString: $0) } ?? ""
      let e = sd_bus_message_enter_container(m, type, contents)
      guard e > 0 else { throw unreadable(e) }
      var children: [BusValue] = []
      while let child = try read(m, depth: depth + 1, budget: &budget) { children.append(child) }
      let x = sd_bus_message_exit_container(m)
      guard x >= 0 else { throw unreadable(x) }
      switch code {
      case "a": return .array(element: inner, children)
      case "r": return .structure(children)
      case "e":
        guard children.count == 2 else { throw ChimeError(.invalidArgument, "a dictionary entry without a key and a value") }
        return .entry(children[0], children[1])
      default:
        guard children.count == 1 else { throw ChimeError(.invalidArgument, "a variant without one value") }
        return .variant(children[0])
      }
    case "s", "o", "g":
      var s: UnsafePointer<CChar>?
      let r = sd_bus_message_read_basic(m, type, &s)
      guard r > 0, let s else { throw unreadable(r) }
      return .string(String(cString: s), type: code)
    case "b":
      var v: Int32 = 0
      try basic(m, type, &v)
      return .boolean(v != 0)
    case "d":
      var v: Double = 0
      try basic(m, type, &v)
      return .double(v)
    case "y":
      var v: UInt8 = 0
      try basic(m, type, &v)
      return .unsigned(UInt64(v), type: code)
    case "q":
      var v: UInt16 = 0
      try basic(m, type, &v)
      return .unsigned(UInt64(v), type: code)
    case "u":
      var v: UInt32 = 0
      try basic(m, type, &v)
      return .unsigned(UInt64(v), type: code)
    case "t":
      var v: UInt64 = 0
      try basic(m, type, &v)
      return .unsigned(v, type: code)
    case "n":
      var v: Int16 = 0
      try basic(m, type, &v)
      return .signed(Int64(v), type: code)
    case "i":
      var v: Int32 = 0
      try basic(m, type, &v)
      return .signed(Int64(v), type: code)
    case "x":
      var v: Int64 = 0
      try basic(m, type, &v)
      return .signed(v, type: code)
    default:
      // `h` (a file descriptor) and anything newer: Chime takes none.
      throw ChimeError(.invalidArgument, "values of type \(code) are not taken")
    }
  }

  private static func basic<T>(_ m: OpaquePointer, _ type: CChar, _ value: inout T) throws(ChimeError) {
    let r = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(m, type, $0) }
    guard r > 0 else { throw unreadable(r) }
  }

  private static func unreadable(_ r: Int32) -> ChimeError {
    ChimeError(.invalidArgument, "the arguments cannot be read: \(BusConnection.errno(r))")
  }

  // MARK: Writing

  /// Appends `values` in order; a negative errno when sd-bus refuses one.
  static func append(_ m: OpaquePointer, _ values: [BusValue]) -> Int32 {
    for value in values {
      let r = append(m, value)
      if r < 0 { return r }
    }
    return 0
  }

  private static func append(_ m: OpaquePointer, _ value: BusValue) -> Int32 {
    switch value {
    case .boolean(let b):
      var v: Int32 = b ? 1 : 0
      return sd_bus_message_append_basic(m, code("b"), &v)
    case .double(var d):
      return sd_bus_message_append_basic(m, code("d"), &d)
    case .string(let s, let type):
      return s.withCString { sd_bus_message_append_basic(m, code(type), $0) }
    case .signed(let v, let type):
      switch type {
      case "n": var x = Int16(clamping: v); return sd_bus_message_append_basic(m, code(type), &x)
      case "i": var x = Int32(clamping: v); return sd_bus_message_append_basic(m, code(type), &x)
      default: var x = v; return sd_bus_message_append_basic(m, code("x"), &x)
      }
    case .unsigned(let v, let type):
      switch type {
      case "y": var x = UInt8(clamping: v); return sd_bus_message_append_basic(m, code(type), &x)
      case "q": var x = UInt16(clamping: v); return sd_bus_message_append_basic(m, code(type), &x)
      case "u": var x = UInt32(clamping: v); return sd_bus_message_append_basic(m, code(type), &x)
      default: var x = v; return sd_bus_message_append_basic(m, code("t"), &x)
      }
    case .array(let element, let items):
      return container(m, "a", element, items)
    case .entry(let key, let item):
      return container(m, "e", key.signature + item.signature, [key, item])
    case .structure(let fields):
      return container(m, "r", fields.map(\.signature).joined(), fields)
    case .variant(let inner):
      return container(m, "v", inner.signature, [inner])
    }
  }

  private static func container(_ m: OpaquePointer, _ type: Character, _ contents: String, _ items: [BusValue]) -> Int32 {
    var r = sd_bus_message_open_container(m, code(type), contents)
    guard r >= 0 else { return r }
    r = append(m, items)
    guard r >= 0 else { return r }
    return sd_bus_message_close_container(m)
  }

  private static func code(_ c: Character) -> CChar {
    CChar(bitPattern: c.asciiValue ?? 0)
  }
}
