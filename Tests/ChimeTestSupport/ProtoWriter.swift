/// Writes protobuf by hand, for payloads the codec would never produce (bad UTF-8, unknown enum
/// values, missing kinds, messages built to make a decoder allocate).
public struct ProtoWriter {
  public var bytes: [UInt8] = []

  public init() {}

  public mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7F) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  public mutating func field(_ number: Int, varint value: UInt64) {
    varint(UInt64(number) << 3)
    varint(value)
  }

  /// An enum or int32 field; negative values take ten bytes, as protobuf sends them.
  public mutating func field(_ number: Int, int32 value: Int32) {
    field(number, varint: UInt64(bitPattern: Int64(value)))
  }

  /// A double (wire type 1: eight little-endian bytes).
  public mutating func field(_ number: Int, double value: Double) {
    varint(UInt64(number) << 3 | 1)
    let bits = value.bitPattern
    for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
  }

  public mutating func field(_ number: Int, bytes value: [UInt8]) {
    varint(UInt64(number) << 3 | 2)
    varint(UInt64(value.count))
    bytes += value
  }

  public mutating func field(_ number: Int, string value: String) {
    field(number, bytes: Array(value.utf8))
  }

  public mutating func field(_ number: Int, message build: (inout ProtoWriter) -> Void) {
    var inner = ProtoWriter()
    build(&inner)
    field(number, bytes: inner.bytes)
  }

  public static func message(_ build: (inout ProtoWriter) -> Void) -> [UInt8] {
    var w = ProtoWriter()
    build(&w)
    return w.bytes
  }

  /// A 4-byte big-endian length prefix followed by `body`.
  public static func framed(_ body: [UInt8]) -> [UInt8] {
    let n = UInt32(body.count)
    return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
  }
}
