package import ChimeCore

/// One way into the service besides the socket's own protocols (the D-Bus API): it takes
/// calls from its peers and hands them to the router (`TransportContext`), translating
/// only. The daemon makes one per `TransportFactory` as it starts and drives it through these
/// steps, on the loop thread.
package protocol ServerTransport: AnyObject {
  /// Starts taking calls (binds, or asks for its name). A transport that cannot reach what it
  /// serves on may log that and stay off instead of throwing: only what must stop the daemon
  /// throws.
  ///
  /// - Throws: UNAVAILABLE `LISTEN_FAILED` (or the transport's own reason) when the daemon
  ///   cannot serve without it.
  func listen() throws(ChimeError)
  /// Takes no new peers and tells the ones it has that the daemon is leaving (`why` where a
  /// peer can be told); calls already taken go on.
  func drain(refusing why: ChimeError)
  /// Ends every call in flight with `goodbye` and closes.
  func close(with goodbye: ChimeError)
  /// The wall clock (or a test's clock) moved: deadlines are looked at again.
  func clockChanged()
}

/// Makes a transport once the daemon's loop and router exist. chimed chooses the factories
/// (`ServerTransports`); nil: this daemon does not serve it (its configuration says not to).
package protocol TransportFactory: Sendable {
  func make(_ context: TransportContext) -> (any ServerTransport)?
}
