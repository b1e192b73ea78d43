package import ChimeCore

/// A protocol spoken on the daemon's socket (native framing, gRPC). The listener accepts a
/// peer, checks who it is, reads its first bytes and hands the socket to the first protocol
/// that claims them; the daemon's default protocol (the last of `ServerTransports.socket`)
/// takes what no other claims. The choice is made once per connection, before any of the
/// protocol's own code reads it. Loop thread only.
package protocol StreamProtocol: AnyObject {
  /// Whether a connection whose first bytes are `prefix` (one or more) speaks this protocol.
  /// The default protocol is not asked.
  func claim(_ prefix: [UInt8]) -> ProtocolClaim
  /// Serves `socket` from now on, starting with `prefix`, the bytes already read from it. It
  /// reads the socket itself (`StreamSocket.onBytes`); the listener keeps `onClose` and tells
  /// the connection through `StreamConnection.closed`.
  func serve(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8]) -> any StreamConnection
  /// Tells a peer refused before anything of it was read (another uid, too many connections,
  /// shutting down) `error` in this protocol, after `prefix` (empty when the peer sent nothing
  /// in time and the default protocol answers), then hangs up. No call reaches the router.
  func refuse(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8], with error: ChimeError) -> any StreamConnection
}

/// Makes a stream protocol once the daemon's loop and router exist (`ServerTransports.socket`).
package protocol StreamProtocolFactory: Sendable {
  func make(_ context: TransportContext) -> any StreamProtocol
}
