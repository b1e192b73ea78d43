import ChimeSystem
import Synchronization

/// The one thread that reads replies for every connection of the process whose caller does
/// not read its own (calls in parallel, streams, a slow reply). A connection hands it its
/// socket by arming it; each readiness is one read, after which the connection arms it again
/// while calls are left. One thread for all connections: replies that arrive together (the
/// daemon answers a batch of adds at once) are read in one wake-up, where a thread per
/// connection woke once per reply (32 clients: 3.8 context switches per call, 45–57 µs of
/// CPU; `chime-bench --client-adds N --clients 32`).
final class ReplyPoller: Sendable {
  /// The process's poller, its thread started with it; a failure (no descriptors left) is
  /// kept and given to every connection that needs it.
  static let shared: Result<ReplyPoller, Errno> = Result { () throws(Errno) in
    let poller = try ReplyPoller()
    SystemThread.start(name: "chime-replies") { poller.run() }
    return poller
  }

  private static let nextToken = Atomic<UInt64>(1)

  /// A token no other connection of the process has.
  static func newToken() -> UInt64 {
    nextToken.add(1, ordering: .relaxed).oldValue
  }

  private let poll: ReadinessPoll
  /// The connections registered, by token: held until they are removed (when they go down).
  private let watched = Locked([UInt64: ConnectionCore]())

  private init() throws(Errno) {
    poll = try ReadinessPoll()
  }

  /// Has `core.readReady()` called once its socket is readable (or hung up). `added`: it was
  /// registered before.
  func arm(_ core: ConnectionCore, added: Bool) throws(Errno) {
    if !added { watched.withLock { $0[core.pollToken] = core } }
    try poll.arm(core.fd, token: core.pollToken, added: added)
  }

  /// Forgets `core` (down): no more reports, and the poller lets go of it.
  func remove(_ core: ConnectionCore) {
    poll.remove(core.fd)
    watched.withLock { $0[core.pollToken] = nil }
  }

  private func run() {
    while true {
      for token in poll.wait() {
        guard let core = watched.withLock({ $0[token] }) else { continue }
        core.readReady()
      }
    }
  }
}
