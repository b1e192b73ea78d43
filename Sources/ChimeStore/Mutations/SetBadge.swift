public import ChimeCore

/// Sets an app's badge count (`SetBadgeCount`); a change appends a `.badgeChanged` event.
public struct SetBadge: Mutation {
  public var app: String
  public var count: Int
  public var at: Instant

  public init(app: String, count: Int, at: Instant) {
    self.app = app
    self.count = count
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    public var discardedFiles: [String] { [] }
  }

  /// - Throws: INVALID_ARGUMENT `BADGE_INPUT_INVALID` for a negative count.
  public func apply(in t: WriteTransaction) throws -> Outcome {
    Outcome(events: try t.setBadge(count, app: app, at: at).map { [$0] } ?? [])
  }
}
