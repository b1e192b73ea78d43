import ChimeCore

/// Another protocol served on a connection's socket, chosen by the peer's first bytes (gRPC).
/// It writes to the socket itself; the connection hands it what it reads. Loop thread only.
protocol ConnectionUpgrade: AnyObject {
  func received(_ bytes: UnsafeRawBufferPointer)
  /// Ends every call in flight with `error` and lets the connection close (shutdown).
  func finishAll(with error: ChimeError)
  /// The daemon stopped taking new calls.
  func noteDraining()
  /// The wall clock (or a test's clock) moved: calls' deadlines are looked at again.
  func clockChanged()
  /// The socket closed: calls in flight are cancelled.
  func closed(_ reason: String)
}
