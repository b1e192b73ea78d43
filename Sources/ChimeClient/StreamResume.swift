public import ChimeCore

/// Where a Subscribe stream that ended picks up again, and whether it should: a watcher that
/// outlives a chimed restart reopens its stream after the last stored event it saw, so it
/// neither misses nor repeats one. Pure: the caller connects, waits and subscribes.
public struct StreamResume: Sendable, Equatable {
  /// The cursor to subscribe after; nil: live only (nothing seen yet, none given).
  public private(set) var cursor: UInt64?

  public init(after cursor: UInt64?) {
    self.cursor = cursor
  }

  /// Notes an event the stream gave: a stored event (cursor > 0) or the `subscribed` marker
  /// (the cursor live events follow) moves the resume point; live-only events (cursor 0) do not.
  public mutating func saw(_ event: Event) {
    guard event.cursor > 0 else { return }
    cursor = max(cursor ?? 0, event.cursor)
  }

  /// Whether a stream that ended with `error` is worth opening again: chimed is stopping or
  /// restarting (SHUTTING_DOWN), the connection to it closed, or it is not reachable yet (its
  /// socket is back only once the next chimed listens). Anything else is an answer, not an
  /// absence, and ends the watch.
  public static func reopens(after error: ChimeError) -> Bool {
    error.has(.shuttingDown) || error.has(.connectionClosed) || error.has(.daemonUnavailable)
  }

  /// How long to wait before reconnection attempt `attempt` (0 first): 100 ms, doubling, at
  /// most 2 s, so a restart is caught at once and an absent chimed is not spun on.
  public static func delayMillis(attempt: Int) -> Int {
    min(2000, 100 << min(max(attempt, 0), 5))
  }
}
