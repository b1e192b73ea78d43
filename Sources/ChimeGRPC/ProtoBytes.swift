/// Protocol Buffers wire format for the few small messages the gRPC transport speaks itself
/// (google.rpc.Status, reflection and health): written and read field by field, so these
/// foreign messages need no generated code and no `.proto` beside Chime's own contract.
struct ProtoWriter {
  private(set) var bytes: [UInt8] = []

  mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// A varint field (int32, enum); zero is left out, as proto3 does.
  mutating func int(_ field: UInt64, _ value: Int64) {
    guard value != 0 else { return }
    varint(field << 3)
    varint(UInt64(bitPattern: value))
  }

  /// A length-delimited field (string, bytes, message); an empty string is left out unless
  /// `always` (a message that must be present even when empty).
  mutating func bytes(_ field: UInt64, _ value: some Collection<UInt8>, always: Bool = false) {
    guard always || !value.isEmpty else { return }
    varint(field << 3 | 2)
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  mutating func string(_ field: UInt64, _ value: String) { bytes(field, Array(value.utf8)) }
}

/// Reads the fields of one message. Malformed bytes end the reading (`next` returns nil and
/// `failed` is set), never a crash.
struct ProtoReader {
  enum Value {
    case varint(UInt64)
    case bytes(ArraySlice<UInt8>)
  }

  private let bytes: ArraySlice<UInt8>
  private var index: Int
  private(set) var failed = false

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  init(_ bytes: [UInt8]) { self.init(bytes[...]) }

  /// The next field (its number and value); fixed-width fields are skipped.
  mutating func next() -> (field: UInt64, value: Value)? {
    while index < bytes.endIndex {
      guard let key = readVarint() else { return fail() }
      let field = key >> 3
      switch key & 7 {
      case 0:
        guard let value = readVarint() else { return fail() }
        return (field, .varint(value))
      case 1, 5:
        let width = key & 7 == 1 ? 8 : 4
        guard bytes.endIndex - index >= width else { return fail() }
        index += width
      case 2:
        guard let length = readVarint(), length <= UInt64(bytes.endIndex - index) else { return fail() }
        let start = index
        index += Int(length)
        return (field, .bytes(bytes[start..<index]))
      default:
        return fail()
      }
    }
    return nil
  }

  private mutating func fail() -> (field: UInt64, value: Value)? {
    failed = true
    index = bytes.endIndex
    return nil
  }

  private mutating func readVarint() -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while index < bytes.endIndex, shift < 64 {
      let byte = bytes[index]
      index += 1
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }
}

extension ProtoReader.Value {
  var string: String? {
    if case .bytes(let b) = self { return String(decoding: b, as: UTF8.self) }
    return nil
  }

  var slice: ArraySlice<UInt8>? {
    if case .bytes(let b) = self { return b }
    return nil
  }
}
