/// One pending request's place in the schedule: ordered by due instant, then app, then
/// identifier, so keys are unique and a store index can page through them (keyset paging).
public struct ScheduleKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var due: Instant
  public var app: String
  public var identifier: String

  public init(due: Instant, app: String, identifier: String) {
    self.due = due
    self.app = app
    self.identifier = identifier
  }

  public static func < (a: ScheduleKey, b: ScheduleKey) -> Bool {
    if a.due != b.due { return a.due < b.due }
    if a.app != b.app { return a.app < b.app }
    return a.identifier < b.identifier
  }

  public var description: String { "\(app)/\(identifier)@\(due)" }
}
