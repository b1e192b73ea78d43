package import ChimeCore

/// One accepted socket served by a stream protocol (`StreamProtocol`): the native framing's
/// connection, or gRPC's. It reads and writes the socket itself; the listener tells it what
/// happens to the daemon. Loop thread only.
///
/// Kept apart from the loop's types (it names none), so a transport's connection can be
/// driven without a socket (the gRPC fuzz harness builds this file with the transport).
package protocol StreamConnection: AnyObject {
  /// The daemon takes no new calls (a gRPC peer is sent GOAWAY; a native peer learns it from
  /// its next call's status).
  func noteDraining()
  /// Ends every call in flight with `error` (streams included), lets the replies drain and
  /// closes. Used at shutdown, so peers learn why instead of seeing the socket vanish.
  func finishAll(with error: ChimeError)
  /// The wall clock (or a test's clock) moved: calls' deadlines are looked at again.
  func clockChanged()
  /// The socket closed: calls in flight are cancelled.
  func closed(_ reason: String)
}

/// What the listener knows of a peer when it hands the peer's socket to a protocol.
package struct AcceptedPeer: Sendable {
  /// The connection's number in the logs.
  package let id: UInt64
  /// The one app id a sandboxed peer's calls may name; nil: a host process, as declared.
  package let confinedApp: String?
  /// The daemon had begun its shutdown when the protocol was chosen.
  package let draining: Bool

  package init(id: UInt64, confinedApp: String?, draining: Bool) {
    self.id = id
    self.confinedApp = confinedApp
    self.draining = draining
  }
}

/// A stream protocol's answer to a connection's first bytes.
package enum ProtocolClaim: Sendable {
  /// The bytes are this protocol's: it serves the connection.
  case mine
  /// They are not.
  case notMine
  /// They could still be: more bytes are needed to tell.
  case undecided
}
