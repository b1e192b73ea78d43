/// What `Respond` answers.
public struct RespondResult: Hashable, Sendable {
  /// The content extensions shown the response (those registered for the notification's category), sorted.
  public var routedTo: [String]
  /// The notification left the delivered list.
  public var removed: Bool

  public init(routedTo: [String] = [], removed: Bool) {
    self.routedTo = routedTo
    self.removed = removed
  }
}
