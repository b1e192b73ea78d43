package import ChimeCore
package import ChimeWire

/// What the daemon gives a transport to serve with: its loop, its configuration and where
/// calls go. Loop thread only.
package struct TransportContext {
  package let loop: EventLoop
  package let configuration: ServerConfiguration
  /// The router, for transports that decode requests themselves (`CallRouter.call`,
  /// `CallRouter.stream`); nil when the daemon answers every call with `refusal`.
  package let router: CallRouter?
  /// The one answer to every call of a daemon that serves nothing (its configuration is
  /// invalid); nil when `router` serves.
  package let refusal: ChimeError?
  /// Where a call whose request is still bytes goes: the router (the activity noted for the
  /// daemon's idle trim), or an answer with `refusal`.
  package let start: (any ServerCall, CallHeader, [UInt8]) -> Void
  /// Notes a call taken another way (a D-Bus call the transport decoded), for the idle trim.
  package let noteActivity: () -> Void

  package init(loop: EventLoop, configuration: ServerConfiguration, router: CallRouter?, refusal: ChimeError?,
               start: @escaping (any ServerCall, CallHeader, [UInt8]) -> Void, noteActivity: @escaping () -> Void) {
    self.loop = loop
    self.configuration = configuration
    self.router = router
    self.refusal = refusal
    self.start = start
    self.noteActivity = noteActivity
  }

  /// A timer on this loop (`LoopTimer`); close it before dropping it.
  package func makeTimer(_ action: @escaping () -> Void) -> LoopTimer {
    LoopTimer(loop: loop, action: action)
  }
}
