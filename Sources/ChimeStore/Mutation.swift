public import ChimeCore
public import Foundation

/// One change to the store. `ChimeDatabase.commit(_:)` applies a batch of them in one
/// transaction; each is validated against the stored state on its own (a savepoint each), so
/// one that fails leaves the others unaffected.
/// Looks at a resolved custom sound again at delivery, given the app and its registered layout
/// (nil when it never registered); returns it unchanged when it still plays.
public typealias SoundRecheck = @Sendable (_ resolved: SoundResolution, _ app: String, _ registered: AppLayout?) -> SoundResolution

public enum Mutation: Sendable {
  /// Schedules `pending` under its `request.identifier`, replacing a pending request with the
  /// same (app, identifier) wholesale. Event: `.pendingAdded`, or `.pendingReplaced` when one
  /// existed (with `event.pending` set to what was stored). Outcome: `pending`, `replaced`.
  case add(app: String, pending: PendingRequest, at: Instant)

  /// A request with no trigger, delivered at once. Removes a pending request with the same
  /// identifier (outcome `replaced`, event `.pendingRemoved`), records `delivered` (replacing
  /// a delivered notification with the same identifier) and appends a `.delivered` event.
  case deliverNow(app: String, delivered: DeliveredNotification, at: Instant)

  /// Removes pending requests by identifier (nil: all of the app's). Outcome `removed` lists
  /// those that existed, sorted; one `.pendingRemoved` event lists them (none if empty).
  case removePending(app: String, identifiers: [String]?, at: Instant)

  /// Removes delivered notifications by identifier (nil: all of the app's). Outcome `removed`
  /// lists those that existed, sorted; one `.deliveredRemoved` event lists them (none if empty).
  case removeDelivered(app: String, identifiers: [String]?, at: Instant)

  /// Fires the pending request named by `key` if its stored next fire instant still equals
  /// `key.due`; otherwise the outcome is `stale` and nothing changes.
  ///
  /// A fire later than `missedGraceMillis` is *missed*; a missed fire follows the request's
  /// `MissedFirePolicy` (deliver marked missed, skip, or deliver only if late by less than a
  /// bound). A delivered fire stores a `DeliveredNotification` (outcome `delivered`, event
  /// `.delivered`); a skipped one appends `.missedSkipped` with a note. A repeating request is
  /// then advanced past `now` (outcome `next`, `fire_count` + 1); any other is removed.
  /// `zone` is the one floating calendar triggers follow now.
  ///
  /// `soundCheck`, when given, looks at a custom sound again before it is recorded as
  /// delivered (the file may have vanished or changed since the request was added); when it
  /// changes the outcome, the delivered event's note says so.
  case fire(key: ScheduleKey, now: Instant, missedGraceMillis: Int64, zone: TimeZone = .current, soundCheck: SoundRecheck? = nil)

  /// The daemon's time zone changed: every pending request with a floating calendar trigger
  /// (no zone of its own) gets its next fire re-planned in `zone`, after `now`, so 08:00 stays
  /// 08:00 on the wall clock. Outcome `rescheduled` lists the new keys; one `.pendingReplaced`
  /// event per request, in `appEvents`. A trigger that can no longer match is removed.
  case replanFloating(zone: TimeZone, now: Instant)

  /// Records (or replaces) an app's layout. No event.
  case registerApp(layout: AppLayout, at: Instant)

  /// The app the mutation changes.
  public var app: String {
    switch self {
    case .add(let app, _, _), .deliverNow(let app, _, _), .removePending(let app, _, _), .removeDelivered(let app, _, _):
      app
    case .fire(let key, _, _, _, _):
      key.app
    case .replanFloating:
      "*"
    case .registerApp(let layout, _):
      layout.appID
    }
  }
}

/// What one mutation did.
public struct MutationOutcome: Sendable, Hashable {
  /// The events the mutation appended, as stored (cursors assigned), in cursor order.
  public var events: [Event]
  /// `add`/`deliverNow`: a pending request with the same identifier existed.
  public var replaced: Bool
  /// `removePending`/`removeDelivered`: the identifiers that existed and were removed, sorted.
  public var removed: [String]
  /// `fire`: the key no longer matched the stored request; nothing changed.
  public var stale: Bool
  /// `fire`: the next schedule key of a repeating request.
  public var next: ScheduleKey?
  /// `add`: what was stored. `fire` of a repeating request: the request as advanced.
  public var pending: PendingRequest?
  /// `replanFloating`: the new schedule keys.
  public var rescheduled: [ScheduleKey] = []
  /// `replanFloating`: the events it appended, by app.
  public var appEvents: [String: [Event]] = [:]
  /// `fire`/`deliverNow`: what was recorded as delivered (nil when a missed fire was skipped).
  public var delivered: DeliveredNotification?
  /// Attachment files in the store that nothing holds any more: unlink them after the commit.
  public var discardedFiles: [String] = []

  public init(events: [Event] = [], replaced: Bool = false, removed: [String] = [], stale: Bool = false,
              next: ScheduleKey? = nil, pending: PendingRequest? = nil, delivered: DeliveredNotification? = nil) {
    self.events = events
    self.replaced = replaced
    self.removed = removed
    self.stale = stale
    self.next = next
    self.pending = pending
    self.delivered = delivered
  }
}
