import ChimeCore

/// An `a{sv}` argument read key by key, each with the type its key takes: the one place a D-Bus
/// caller's dictionaries become checked values. A key read twice, an unknown key (`finish`), a
/// value of the wrong type or out of range is INVALID_ARGUMENT `INVALID_ARGUMENT` naming the
/// key's path (`content.badge`), so a misspelt key is an error rather than silently ignored.
struct BusDictionary {
  /// Where the dictionary sits, e.g. `content` or `content.attachments[0]`.
  let path: String
  private var values: [String: BusValue]
  private var order: [String]
  private var used: Set<String> = []

  /// - Throws: INVALID_ARGUMENT when `value` is not an `a{sv}`, or names a key twice.
  init(_ value: BusValue, path: String) throws(ChimeError) {
    self.path = path
    guard case .array("{sv}", let entries) = value else {
      throw Self.wrongType(path, want: "a{sv}", got: value)
    }
    var values: [String: BusValue] = [:]
    var order: [String] = []
    for case .entry(.string(let key, _), .variant(let inner)) in entries {
      guard values[key] == nil else {
        throw ChimeError(.invalidArgument, "the key \"\(key.prefix(100))\" is given twice", field: Self.join(path, key))
      }
      values[key] = inner
      order.append(key)
    }
    self.values = values
    self.order = order
  }

  var isEmpty: Bool { values.isEmpty }
  func has(_ key: String) -> Bool { values[key] != nil }

  /// Refuses keys no getter asked for.
  func finish(known: [String] = []) throws(ChimeError) {
    for key in order where !used.contains(key) && !known.contains(key) {
      throw ChimeError(.invalidArgument, "unknown key \"\(key.prefix(100))\" in \(path.isEmpty ? "the options" : path)",
                       field: Self.join(path, String(key.prefix(100))))
    }
  }

  mutating func string(_ key: String) throws(ChimeError) -> String? {
    guard let value = take(key) else { return nil }
    guard case .string(let s, "s") = value else { throw Self.wrongType(field(key), want: "s", got: value) }
    return s
  }

  mutating func bool(_ key: String) throws(ChimeError) -> Bool? {
    guard let value = take(key) else { return nil }
    guard case .boolean(let b) = value else { throw Self.wrongType(field(key), want: "b", got: value) }
    return b
  }

  /// Any integer type, within `range`.
  mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(ChimeError) -> Int64? {
    guard let value = take(key) else { return nil }
    let number: Int64?
    switch value {
    case .signed(let v, _): number = v
    case .unsigned(let v, _): number = Int64(exactly: v)
    default: throw Self.wrongType(field(key), want: "an integer", got: value)
    }
    guard let number, range.contains(number) else {
      throw ChimeError(.invalidArgument, "\(key) must be within \(range.lowerBound)...\(range.upperBound)", field: field(key))
    }
    return number
  }

  /// `d`, or any integer type (a whole number written without a point).
  mutating func double(_ key: String) throws(ChimeError) -> Double? {
    guard let value = take(key) else { return nil }
    switch value {
    case .double(let d): return d
    case .signed(let v, _): return Double(v)
    case .unsigned(let v, _): return Double(v)
    default: throw Self.wrongType(field(key), want: "d", got: value)
    }
  }

  mutating func strings(_ key: String) throws(ChimeError) -> [String]? {
    guard let value = take(key) else { return nil }
    guard case .array("s", let items) = value else { throw Self.wrongType(field(key), want: "as", got: value) }
    return items.compactMap { if case .string(let s, _) = $0 { s } else { nil } }
  }

  /// An array of 32-bit integers (`ai`), each within `range`.
  mutating func integers(_ key: String, in range: ClosedRange<Int64>) throws(ChimeError) -> [Int64]? {
    guard let value = take(key) else { return nil }
    guard case .array("i", let items) = value else { throw Self.wrongType(field(key), want: "ai", got: value) }
    var numbers: [Int64] = []
    for (i, item) in items.enumerated() {
      guard case .signed(let n, _) = item, range.contains(n) else {
        throw ChimeError(.invalidArgument, "\(field(key))[\(i)] must be from \(range.lowerBound) to \(range.upperBound)", field: field(key))
      }
      numbers.append(n)
    }
    return numbers
  }

  mutating func dictionary(_ key: String) throws(ChimeError) -> BusDictionary? {
    guard let value = take(key) else { return nil }
    return try BusDictionary(value, path: field(key))
  }

  mutating func dictionaries(_ key: String) throws(ChimeError) -> [BusDictionary]? {
    guard let value = take(key) else { return nil }
    guard case .array("a{sv}", let items) = value else { throw Self.wrongType(field(key), want: "aa{sv}", got: value) }
    var result: [BusDictionary] = []
    for (i, item) in items.enumerated() { result.append(try BusDictionary(item, path: "\(field(key))[\(i)]")) }
    return result
  }

  /// A `(dddd)` structure (or any four numbers in a structure).
  mutating func doubles4(_ key: String) throws(ChimeError) -> (Double, Double, Double, Double)? {
    guard let value = take(key) else { return nil }
    guard case .structure(let fields) = value, fields.count == 4 else { throw Self.wrongType(field(key), want: "(dddd)", got: value) }
    var numbers: [Double] = []
    for f in fields {
      switch f {
      case .double(let d): numbers.append(d)
      case .signed(let v, _): numbers.append(Double(v))
      case .unsigned(let v, _): numbers.append(Double(v))
      default: throw Self.wrongType(field(key), want: "(dddd)", got: value)
      }
    }
    return (numbers[0], numbers[1], numbers[2], numbers[3])
  }

  /// A string key taking one of `choices`.
  mutating func choice<T>(_ key: String, _ choices: [(String, T)]) throws(ChimeError) -> T? {
    guard let name = try string(key) else { return nil }
    guard let match = choices.first(where: { $0.0 == name }) else {
      throw ChimeError(.invalidArgument, "\(key) must be one of \(choices.map(\.0).joined(separator: ", ")), not \"\(name.prefix(100))\"",
                       field: field(key))
    }
    return match.1
  }

  func field(_ key: String) -> String { Self.join(path, key) }

  private mutating func take(_ key: String) -> BusValue? {
    guard let value = values[key] else { return nil }
    used.insert(key)
    return value
  }

  private static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : path + "." + key
  }

  static func wrongType(_ field: String, want: String, got: BusValue) -> ChimeError {
    ChimeError(.invalidArgument, "\(field) must be \(want), not \(got.signature.prefix(100))", field: field)
  }
}
