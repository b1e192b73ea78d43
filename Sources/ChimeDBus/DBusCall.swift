import ChimeCore
import ChimeServer
import ChimeWire

/// One call the D-Bus face hands the router, typed: its answer goes to the reply the face
/// passed to `CallRouter.call`, never through bytes. Loop thread only.
final class DBusCall: ServerCall {
  let method: Method
  let app: String
  let confinedApp: String?
  var deadline: Instant?
  var onCancel: () -> Void = {}
  private let failed: (ChimeError) -> Void

  init(_ method: Method, app: String, confinedApp: String?, failed: @escaping (ChimeError) -> Void = { _ in }) {
    self.method = method
    self.app = app
    self.confinedApp = confinedApp
    self.failed = failed
  }

  /// Typed streams send ChimeCore values, not bytes.
  func sendMessage(_ payload: [UInt8]) -> Bool { false }

  /// Only an error reaches a typed call this way (a stream the service ends).
  func finish(_ result: Result<[UInt8], ChimeError>) {
    if case .failure(let error) = result { failed(error) }
  }

  /// Ends a stream from the face's side.
  func cancel() {
    let action = onCancel
    onCancel = {}
    action()
  }
}
