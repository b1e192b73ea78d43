public import ChimeCore

/// What a call frame says about the call besides its payload.
public struct CallHeader: Sendable, Hashable {
  /// The wire path, e.g. `/chime.v1.NotificationCenter/Add` (`Method.rawValue`).
  public var method: String
  /// Reverse-DNS identifier of the app the call acts for.
  public var appID: String
  /// Absolute deadline; nil means none (0 on the wire).
  public var deadline: Instant?

  public init(method: String, appID: String, deadline: Instant? = nil) {
    self.method = method
    self.appID = appID
    self.deadline = deadline
  }
}

/// One `chime.v1.Frame`: the unit a connection carries, preceded on the wire by its length as a
/// 4-byte big-endian integer (see `FrameEncoder` and `FrameDecoder`).
public enum Frame: Sendable, Hashable {
  /// Starts call `id`; the payload is the method's request message, encoded.
  case call(id: UInt64, CallHeader, payload: [UInt8])
  /// Asks the server to stop call `id`.
  case cancel(id: UInt64)
  /// Answers call `id`. `status` is nil for OK (an OK status on the wire decodes to nil); it is
  /// meaningful on the reply that ends the stream.
  case reply(id: UInt64, payload: [UInt8], endOfStream: Bool, status: ChimeError?)

  /// The call the frame belongs to.
  public var callID: UInt64 {
    switch self {
    case .call(let id, _, _), .cancel(let id), .reply(let id, _, _, _): id
    }
  }
}
