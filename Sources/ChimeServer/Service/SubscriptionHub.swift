import ChimeCore
import ChimeStore
import Logging

/// Where a server-streaming call's messages go. Loop thread only.
protocol EventSink: AnyObject {
  /// Sends one event; false when the stream is gone (the peer left or cancelled).
  func send(_ event: Event) -> Bool
}

/// Fans committed events out to each app's subscribers, and replays stored events to a
/// subscriber that resumes from a cursor. Loop thread only.
///
/// A resuming subscriber first buffers live events while its backlog is read from the store
/// off the loop; it then gets the backlog, the buffered events it has not seen, a `subscribed`
/// marker, and from then on live events, in cursor order without gaps or repeats.
final class SubscriptionHub {
  private final class Subscriber {
    let id: UInt64
    let app: String
    weak var sink: (any EventSink)?
    /// Non-nil while the backlog is being replayed.
    var buffered: [Event]?
    var lastCursor: UInt64

    init(id: UInt64, app: String, sink: any EventSink, lastCursor: UInt64, replaying: Bool) {
      self.id = id
      self.app = app
      self.sink = sink
      self.lastCursor = lastCursor
      self.buffered = replaying ? [] : nil
    }
  }

  private let loop: EventLoop
  private let database: ChimeDatabase
  private let clock: any WallClock
  private let logger: Logger
  private let limits: (total: Int, perApp: Int)
  private var subscribers: [String: [UInt64: Subscriber]] = [:]
  private var nextID: UInt64 = 1
  private let replayPage = 500
  /// Highest cursor committed so far; the resume point a fresh subscriber is told.
  var lastCommittedCursor: UInt64 = 0

  init(loop: EventLoop, database: ChimeDatabase, clock: any WallClock, logger: Logger,
       limits: (total: Int, perApp: Int) = (4096, 1024)) {
    self.loop = loop
    self.limits = limits
    self.database = database
    self.clock = clock
    self.logger = logger
  }

  var subscriberCount: Int { subscribers.values.reduce(0) { $0 + $1.count } }

  /// Adds a subscriber; returns a token for `unsubscribe`.
  ///
  /// - Throws: RESOURCE_EXHAUSTED `TOO_MANY_SUBSCRIBERS` when the daemon or the app already has
  ///   as many subscribers as it takes; nothing is sent to the sink then.
  func subscribe(app: String, after cursor: UInt64?, sink: any EventSink) throws(ChimeError) -> UInt64 {
    let total = subscriberCount
    guard total < limits.total else {
      throw ChimeError(.tooManySubscribers,
                       "chimed already serves \(total) subscribers, the most it takes (--max-subscribers \(limits.total)); end a watch and try again")
    }
    let ofApp = subscribers[app]?.count ?? 0
    guard ofApp < limits.perApp else {
      throw ChimeError(.tooManySubscribers,
                       "\(app) already has \(ofApp) subscribers, the most one app may hold (--max-subscribers-per-app \(limits.perApp)); end a watch and try again")
    }
    let id = nextID
    nextID += 1
    var resume = cursor
    if let cursor, cursor > lastCommittedCursor {
      // A cursor from the future (the data directory was reset, say): every later event would
      // have a cursor at or below it and the subscriber would wait forever. Say so, with the
      // cursor to resume from, and go live from there.
      _ = sink.send(Event(cursor: lastCommittedCursor, at: clock.now(), kind: .eventsLost,
                          note: "cursor \(cursor) is past the newest event \(lastCommittedCursor); resuming from \(lastCommittedCursor)"))
      resume = nil
    }
    let start = resume ?? lastCommittedCursor
    let subscriber = Subscriber(id: id, app: app, sink: sink, lastCursor: start, replaying: resume != nil)
    subscribers[app, default: [:]][id] = subscriber
    if resume != nil {
      replay(subscriber)
    } else {
      _ = sink.send(Event(cursor: start, at: clock.now(), kind: .subscribed, note: "live"))
    }
    return id
  }

  func unsubscribe(app: String, token: UInt64) {
    subscribers[app]?[token] = nil
    if subscribers[app]?.isEmpty == true { subscribers[app] = nil }
  }

  /// Events committed for `app`, in cursor order.
  func publish(_ events: [Event], app: String) {
    if let maxCursor = events.map(\.cursor).max(), maxCursor > lastCommittedCursor {
      lastCommittedCursor = maxCursor
    }
    guard let group = subscribers[app] else { return }
    for subscriber in group.values {
      if subscriber.buffered != nil {
        subscriber.buffered!.append(contentsOf: events)
      } else {
        deliver(events, to: subscriber)
      }
    }
  }

  private func deliver(_ events: [Event], to subscriber: Subscriber) {
    for event in events where event.cursor == 0 || event.cursor > subscriber.lastCursor {
      guard let sink = subscriber.sink, sink.send(event) else {
        unsubscribe(app: subscriber.app, token: subscriber.id)
        return
      }
      if event.cursor > 0 { subscriber.lastCursor = event.cursor }
    }
  }

  private func replay(_ subscriber: Subscriber) {
    let database = self.database
    let app = subscriber.app
    let after = subscriber.lastCursor
    let limit = replayPage
    loop.runBlocking(catching: { () throws(ChimeError) in try database.events(app: app, after: after, limit: limit) }, then: { [self] result in
      guard subscribers[app]?[subscriber.id] != nil else { return }
      switch result {
      case .failure(let error):
        logger.error("event replay failed", metadata: ["app": "\(app)", "error": "\(error)"])
        unsubscribe(app: app, token: subscriber.id)
        subscriber.sink.map { _ = $0.send(Event(at: clock.now(), kind: .eventsLost, note: "replay failed")) }
      case .success(let events):
        deliver(events, to: subscriber)
        let stored = events.filter { $0.cursor > 0 }
        if stored.count == limit || (events.count == limit) {
          replay(subscriber)  // more backlog
          return
        }
        let buffered = subscriber.buffered ?? []
        subscriber.buffered = nil
        deliver(buffered, to: subscriber)
        if subscribers[app]?[subscriber.id] != nil, let sink = subscriber.sink {
          _ = sink.send(Event(cursor: subscriber.lastCursor, at: clock.now(), kind: .subscribed, note: "live"))
        }
      }
    })
  }
}
