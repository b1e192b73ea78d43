import ChimeCore
import ChimeServer
import ChimeWire

/// A NotificationCenter call that arrived as a gRPC stream, as the router sees it: the same
/// `ServerCall` as a native frame's, answered through the stream's DATA and trailers.
/// Loop thread only.
final class GRPCCall: ServerCall {
  let method: Method
  let app: String
  let stream: Int32
  let confinedApp: String?
  var deadline: Instant?
  weak var connection: GRPCConnection?
  private(set) var finished = false
  var onCancel: () -> Void = {}

  init(method: Method, app: String, stream: Int32, confinedApp: String?, connection: GRPCConnection) {
    self.method = method
    self.app = app
    self.stream = stream
    self.confinedApp = confinedApp
    self.connection = connection
  }

  func sendMessage(_ payload: [UInt8]) -> Bool {
    guard !finished, let connection else { return false }
    return connection.send(payload, on: stream)
  }

  func finish(_ result: Result<[UInt8], ChimeError>) {
    guard !finished else { return }
    finished = true
    onCancel = {}
    connection?.finish(stream, result)
  }

  /// The client reset the stream or the connection went away: streams unsubscribe, and the
  /// call is over (nothing more can reach the client).
  func cancelled() {
    guard !finished else { return }
    let action = onCancel
    onCancel = {}
    finished = true
    action()
  }
}
