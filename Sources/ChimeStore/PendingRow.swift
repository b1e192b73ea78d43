public import ChimeCore

/// A pending request as read for planning, with the revision a mutation built from it names so
/// the store applies it only to the row it was planned from.
public struct PendingRow: Sendable {
  public var key: ScheduleKey
  /// The stored request (`nextFire` and `fireCount` from their columns).
  public var pending: PendingRequest
  public var revision: PendingRevision
  /// For a snoozed key: the notification as it was delivered before it was snoozed (`pending`
  /// is then its listed entry, with `snoozeCount`).
  public var snoozed: DeliveredNotification?
}

/// Identifies one stored state of a pending row: a replacement, a fire or a re-plan changes it.
public struct PendingRevision: Sendable, Hashable {
  let fireCount: Int64
  let body: [UInt8]
}

/// A due key as the store found it.
public enum DueRow: Sendable {
  /// The row no longer has this due instant (replaced, removed or already fired).
  case stale
  case current(PendingRow)
  /// The row does not decode: firing it cannot succeed until it is replaced or removed.
  case unreadable(ChimeError)
}
