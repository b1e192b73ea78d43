/// The request header fields the gRPC transport reads; every other field is only counted
/// towards the header list's size. Matched on the raw bytes nghttp2 hands over, so a field
/// that is not one of these never becomes a `String`.
struct GRPCRequestHeaders {
  var method: String?
  var path: String?
  var contentType: String?
  var app: String?
  var timeout: String?
  var encoding: String?

  /// Keeps `value` when `name` is one of the fields read (HTTP/2 field names arrive in lower
  /// case: HTTP2Session resets a request with an upper-case name before it gets here).
  mutating func keep(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    let text = { String(decoding: value, as: UTF8.self) }
    switch name.count {
    case 5 where name.equals(":path"): path = text()
    case 7 where name.equals(":method"): method = text()
    case 9 where name.equals("chime-app"): app = text()
    case 12 where name.equals("content-type"): contentType = text()
    case 12 where name.equals("grpc-timeout"): timeout = text()
    case 13 where name.equals("grpc-encoding"): encoding = text()
    default: break
    }
  }
}
