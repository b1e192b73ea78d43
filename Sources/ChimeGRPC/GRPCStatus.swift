import ChimeCore
import ExtrasBase64

/// How a call's status travels in gRPC trailers (PROTOCOL-HTTP2.md, and the rich error model
/// of google.rpc): `grpc-status`, `grpc-message` percent-encoded, and `grpc-status-details-bin`
/// carrying a google.rpc.Status whose one detail is a google.rpc.ErrorInfo with Chime's reason
/// (domain `chime`, `metadata["field"]` the field path).
enum GRPCStatus {
  static let errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"
  static let domain = "chime"

  /// The trailer fields that end a call with `error`, or OK when nil.
  static func fields(_ error: ChimeError?) -> [(String, String)] {
    guard let error, error.code != .ok else { return [("grpc-status", "0")] }
    var fields = [("grpc-status", "\(error.code.rawValue)")]
    if !error.message.isEmpty { fields.append(("grpc-message", percentEncoded(error.message))) }
    // Binary (`-bin`) metadata is sent as base64 without padding.
    fields.append(("grpc-status-details-bin", Base64.encodeToString(bytes: details(error), options: .omitPaddingCharacter)))
    return fields
  }

  /// google.rpc.Status { code = 1; message = 2; repeated Any details = 3 } with one Any
  /// { type_url = 1; value = 2 } holding google.rpc.ErrorInfo { reason = 1; domain = 2;
  /// map<string, string> metadata = 3 }.
  static func details(_ error: ChimeError) -> [UInt8] {
    var info = ProtoWriter()
    info.string(1, error.reason)
    info.string(2, domain)
    if !error.field.isEmpty {
      var entry = ProtoWriter()
      entry.string(1, "field")
      entry.string(2, error.field)
      info.bytes(3, entry.bytes)
    }
    var any = ProtoWriter()
    any.string(1, errorInfoType)
    any.bytes(2, info.bytes, always: true)
    var status = ProtoWriter()
    status.int(1, Int64(error.code.rawValue))
    status.string(2, error.message)
    status.bytes(3, any.bytes)
    return status.bytes
  }

  /// `grpc-message`'s encoding: bytes outside printable ASCII, and `%`, as `%XX`.
  static func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      if byte >= 0x20 && byte <= 0x7e && byte != 0x25 {
        out.unicodeScalars.append(UnicodeScalar(byte))
      } else {
        let hex = Array("0123456789ABCDEF".utf8)
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(UnicodeScalar(hex[Int(byte >> 4)]))
        out.unicodeScalars.append(UnicodeScalar(hex[Int(byte & 15)]))
      }
    }
    return out
  }

  /// The span a `grpc-timeout` value names (`TimeoutValue TimeoutUnit`: at most 8 digits, then
  /// H, M, S, m, u or n), in milliseconds rounded up; nil when malformed.
  static func timeoutMillis(_ value: String) -> Int64? {
    let utf8 = Array(value.utf8)
    guard utf8.count >= 2, utf8.count <= 9, let unit = utf8.last else { return nil }
    var amount: Int64 = 0
    for byte in utf8.dropLast() {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      amount = amount * 10 + Int64(byte - 0x30)
    }
    switch unit {
    case UInt8(ascii: "H"): return amount * 3_600_000
    case UInt8(ascii: "M"): return amount * 60_000
    case UInt8(ascii: "S"): return amount * 1000
    case UInt8(ascii: "m"): return amount
    case UInt8(ascii: "u"): return (amount + 999) / 1000
    case UInt8(ascii: "n"): return (amount + 999_999) / 1_000_000
    default: return nil
    }
  }
}
