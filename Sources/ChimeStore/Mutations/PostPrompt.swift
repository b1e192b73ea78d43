public import ChimeCore

/// Posts one of chimed's own notifications that must not be shown twice at once (an "Allow
/// notifications?" prompt): unless `delivered` is already in `app`'s delivered list, records
/// `category` as the app's one category and delivers `delivered` at once as `DeliverNow` does
/// (snapshot of that category, `.delivered` event). `outcome.delivered` is nil when it was
/// already there: nothing changed.
public struct PostPrompt: Mutation {
  public var app: String
  public var category: NotificationCategory
  public var delivered: DeliveredNotification
  public var at: Instant

  public init(app: String, category: NotificationCategory, delivered: DeliveredNotification, at: Instant) {
    self.app = app
    self.category = category
    self.delivered = delivered
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    public var discardedFiles: [String] = []
    /// What was recorded, nil when the prompt was showing already.
    public var delivered: DeliveredNotification?
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    let identifier = delivered.request.identifier
    try WriteTransaction.check(app: app, identifier: identifier)
    guard try !t.exists(.delivered, app: app, identifier: identifier) else { return Outcome() }
    try SetCategories(app: app, categories: [category]).apply(in: t)
    let posted = try DeliverNow(app: app, delivered: delivered, at: at).apply(in: t)
    return Outcome(events: posted.events, discardedFiles: posted.discardedFiles, delivered: posted.delivered)
  }
}
