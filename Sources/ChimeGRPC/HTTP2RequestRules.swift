/// RFC 9113 §8's rules for one request stream: its header block, its trailers and the length of
/// its body. A stream that breaks one is malformed (§8.1.1) and is reset with PROTOCOL_ERROR.
///
/// These are the checks nghttp2 makes when its HTTP messaging is on, except for `:authority`,
/// which may hold anything but NUL, CR and LF, or be empty or absent: gRPC clients on a Unix
/// socket put the socket's path there (`unix:/run/user/1000/chime/chimed.sock`), which nghttp2
/// refuses. Fed the fields and DATA lengths of one stream in order; pure.
struct HTTP2RequestRules {
  /// Why a request is malformed.
  struct Violation: Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private struct Pseudo: OptionSet {
    let rawValue: UInt8
    static let method = Pseudo(rawValue: 1 << 0)
    static let scheme = Pseudo(rawValue: 1 << 1)
    static let path = Pseudo(rawValue: 1 << 2)
    static let authority = Pseudo(rawValue: 1 << 3)
  }

  private var pseudo: Pseudo = []
  private var regularSeen = false
  private var inTrailers = false
  private var isConnect = false
  private var declaredLength: Int?
  private var receivedLength = 0

  /// A HEADERS frame after the request's header block: trailers, which end the stream
  /// (§8.1: a second header block without END_STREAM is malformed).
  mutating func beginTrailers(endStream: Bool) -> Violation? {
    inTrailers = true
    return endStream ? nil : Violation("a header block after the request's headers does not end the stream")
  }

  /// One field of the current header block, as the peer sent it.
  mutating func field(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Violation? {
    if let bad = Self.checkName(name) { return bad }
    if Self.hasForbiddenByte(value) { return Violation("the value of \(Self.text(name)) holds NUL, CR or LF") }
    if name.first == UInt8(ascii: ":") { return pseudoField(name: name, value: value) }
    regularSeen = true
    switch name.count {
    case 2 where name.equals("te"):
      // The one value §8.2.2 allows (compared as nghttp2 does, ignoring case).
      guard Self.equalsIgnoringCase(value, "trailers") else { return Violation("te is \"\(Self.text(value))\", not \"trailers\"") }
    case 7 where name.equals("upgrade"),
         10 where name.equals("connection") || name.equals("keep-alive"),
         16 where name.equals("proxy-connection"),
         17 where name.equals("transfer-encoding"):
      return Violation("\(Self.text(name)) is a connection-specific field, which HTTP/2 forbids")
    case 14 where name.equals("content-length"):
      guard !inTrailers else { return Violation("content-length in trailers") }
      guard declaredLength == nil else { return Violation("content-length appears twice") }
      guard let length = Self.decimal(value) else { return Violation("content-length \"\(Self.text(value))\" is not a length") }
      declaredLength = length
    default:
      break
    }
    return nil
  }

  /// The request's header block is complete; `endStream` when it carries no body.
  mutating func endHeaders(endStream: Bool) -> Violation? {
    guard pseudo.contains(.method) else { return Violation("the request has no :method") }
    if isConnect {
      // §8.5: CONNECT names only an authority.
      guard pseudo.contains(.authority) else { return Violation("a CONNECT request has no :authority") }
      guard pseudo.isDisjoint(with: [.scheme, .path]) else { return Violation("a CONNECT request has :scheme or :path") }
    } else {
      guard pseudo.contains(.scheme) else { return Violation("the request has no :scheme") }
      guard pseudo.contains(.path) else { return Violation("the request has no :path") }
    }
    return endStream ? endBody() : nil
  }

  /// `count` bytes of the body arrived.
  mutating func data(_ count: Int) -> Violation? {
    receivedLength += count
    if let declared = declaredLength, receivedLength > declared {
      return Violation("the body is longer than its content-length \(declared)")
    }
    return nil
  }

  /// The peer ended the stream: the body must be as long as it said.
  func endBody() -> Violation? {
    if let declared = declaredLength, receivedLength != declared {
      return Violation("the body has \(receivedLength) bytes, its content-length says \(declared)")
    }
    return nil
  }

  private mutating func pseudoField(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Violation? {
    // §8.3: request pseudo-headers only, in the request's header block, before every regular
    // field, each at most once.
    guard !inTrailers else { return Violation("the trailers hold \(Self.text(name))") }
    guard !regularSeen else { return Violation("\(Self.text(name)) comes after a regular field") }
    let which: Pseudo
    let valid: Bool
    switch name.count {
    case 5 where name.equals(":path"):
      which = .path
      valid = !value.isEmpty && value.allSatisfy { $0 > 0x20 && $0 != 0x7f }
    case 7 where name.equals(":method"):
      which = .method
      valid = !value.isEmpty && value.allSatisfy(Self.isTokenByte)
      isConnect = value.equals("CONNECT")
    case 7 where name.equals(":scheme"):
      which = .scheme
      valid = value.first.map(Self.isLetter) == true
        && value.allSatisfy { Self.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2b || $0 == 0x2d || $0 == 0x2e }
    case 10 where name.equals(":authority"):
      // Any authority (see the type's comment); NUL, CR and LF were refused above.
      which = .authority
      valid = true
    default:
      return Violation("\(Self.text(name)) is not a request pseudo-header")
    }
    guard !pseudo.contains(which) else { return Violation("\(Self.text(name)) appears twice") }
    guard valid else { return Violation("\(Self.text(name)) \"\(Self.text(value))\" is not valid") }
    pseudo.insert(which)
    return nil
  }

  /// §8.2.1: a name is not empty, holds no upper case, no control, space or non-ASCII byte,
  /// and a colon only as a pseudo-header's first byte.
  private static func checkName(_ name: UnsafeBufferPointer<UInt8>) -> Violation? {
    guard !name.isEmpty else { return Violation("a field has an empty name") }
    for (i, byte) in name.enumerated() {
      if byte >= 0x41 && byte <= 0x5a { return Violation("the field name \(text(name)) is not lower case") }
      if byte <= 0x20 || byte >= 0x7f || (byte == UInt8(ascii: ":") && i > 0) {
        return Violation("the field name \(text(name)) holds a byte HTTP/2 forbids")
      }
    }
    return nil
  }

  /// §8.2.1: NUL, CR and LF are never part of a value. (A regular field's value that starts or
  /// ends with a space or tab is kept as it is: gRPC clients pass custom metadata so, and
  /// nghttp2 itself only drops such a field rather than refuse the request.)
  private static func hasForbiddenByte(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
    value.contains { $0 == 0 || $0 == 0x0a || $0 == 0x0d }
  }

  /// RFC 9110's tchar.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: return true
    // ! # $ % & ' * + - . ^ _ ` | ~
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2a, 0x2b, 0x2d, 0x2e, 0x5e, 0x5f, 0x60, 0x7c, 0x7e: return true
    default: return false
    }
  }

  private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a }

  private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: StaticString) -> Bool {
    guard bytes.count == lower.utf8CodeUnitCount else { return false }
    let literal = lower.utf8Start
    for i in 0..<bytes.count {
      let a = bytes[i]
      if (a >= 0x41 && a <= 0x5a ? a | 0x20 : a) != literal[i] { return false }
    }
    return true
  }

  /// Digits only (no sign, no space, no list), as nghttp2 reads a content-length; nil past
  /// `Int.max`.
  private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard !bytes.isEmpty else { return nil }
    var n = 0
    for byte in bytes {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      let (times10, o1) = n.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(byte - 0x30))
      guard !o1, !o2 else { return nil }
      n = sum
    }
    return n
  }

  /// A name or value for a log line: its first 60 bytes, anything but printable ASCII as "?".
  private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: bytes.prefix(60).map { $0 >= 0x20 && $0 < 0x7f ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }
}
