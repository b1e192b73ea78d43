/// One scheduled fire's place in the schedule: ordered by due instant, then app, then
/// identifier, then whether it is a snoozed notification's return (after a pending request with
/// the same due instant and identifier), so keys are unique and a store index can page through
/// them (keyset paging).
public struct ScheduleKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var due: Instant
  public var app: String
  public var identifier: String
  /// The key of a snoozed notification (the store's `snoozed` table), not of a pending request.
  public var snoozed: Bool

  public init(due: Instant, app: String, identifier: String, snoozed: Bool = false) {
    self.due = due
    self.app = app
    self.identifier = identifier
    self.snoozed = snoozed
  }

  public static func < (a: ScheduleKey, b: ScheduleKey) -> Bool {
    if a.due != b.due { return a.due < b.due }
    if a.app != b.app { return a.app < b.app }
    if a.identifier != b.identifier { return a.identifier < b.identifier }
    return !a.snoozed && b.snoozed
  }

  public var description: String { "\(app)/\(identifier)\(snoozed ? " (snoozed)" : "")@\(due)" }
}
