package import ChimeCore
package import ChimeWire

/// One call in flight, as the router and the service see it: which method, for which app, and
/// how to answer. Every transport's calls conform (the native framing's, gRPC's, D-Bus's, the
/// in-process transport's), so the router never knows which one it serves. Loop thread only.
package protocol ServerCall: AnyObject {
  var method: Method { get }
  var app: String { get }
  /// The only app the caller may act as (a sandboxed peer's own); nil: as declared.
  var confinedApp: String? { get }
  /// When the caller stops waiting (its header's deadline), set by the router as the call is
  /// admitted; nil: none given. A call that waits for something (RequestAuthorization under
  /// the policy `ask`) answers by then.
  var deadline: Instant? { get set }
  /// Run when the call is cancelled or its transport goes away (streams unsubscribe here).
  var onCancel: () -> Void { get set }
  /// Sends one message of a stream; false when the call is over.
  func sendMessage(_ payload: [UInt8]) -> Bool
  /// Ends the call with a payload (unary success) or an error. Later calls do nothing.
  func finish(_ result: Result<[UInt8], ChimeError>)
}
