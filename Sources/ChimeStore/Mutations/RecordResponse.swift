public import ChimeCore

/// Carries out an accepted response (`ResponsePlan`) to the delivered notification it was
/// checked against: appends a `.response` event when the plan forwards it to the app, and
/// removes the notification (event `.deliveredRemoved`, its attachment files released) when
/// the plan says so, or snoozes it (event `.snoozed`, its files kept) when the plan snoozes.
/// When the delivered notification is no longer the one checked against
/// (removed, or replaced by a new delivery with the same identifier), nothing changes and the
/// mutation fails with NOT_FOUND `NOTIFICATION_NOT_DELIVERED`.
public struct RecordResponse: Mutation {
  public var app: String
  public var response: NotificationResponse
  /// The delivered notification the response was checked against, as read.
  public var checked: DeliveredNotification
  public var plan: ResponsePlan

  public init(app: String, response: NotificationResponse, checked: DeliveredNotification, plan: ResponsePlan) {
    self.app = app
    self.response = response
    self.checked = checked
    self.plan = plan
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    public var discardedFiles: [String] = []
    /// The notification left the delivered list.
    public var removed = false
    /// The snoozed notification's return, for the scheduler, when the plan snoozed it.
    public var snoozedKey: ScheduleKey?
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    let identifier = response.notificationIdentifier
    try WriteTransaction.check(app: app, identifier: identifier)
    let select = try t.db.cachedStatement(sql: "SELECT body FROM delivered WHERE app = ? AND identifier = ?")
    let current = try Row.fetchOne(select, arguments: [app, identifier]).map { row in try ChimeDatabase.delivered(from: row, codec: t.codec) }
    guard Self.isSame(current, as: checked) else {
      throw ChimeError(.notificationNotDelivered, "\"\(identifier)\" was removed or delivered again while the response was checked",
                       field: "response.notification_identifier")
    }
    var outcome = Outcome()
    if plan.forwardsToApp {
      let event = Event(at: response.at, kind: .response, identifiers: [identifier], response: response)
      outcome.events.append(try t.append(event, app: app))
    }
    if let duration = plan.snoozes {
      let snoozed = try t.snooze(current ?? checked, app: app, for: duration, at: response.at,
                                 note: "snoozed for \(duration.text) from the notification")
      outcome.events.append(snoozed.event)
      outcome.discardedFiles = try t.store.collectAttachments(app: app, identifier: identifier, db: t.db)
      outcome.removed = true
      outcome.snoozedKey = snoozed.key
    } else if plan.removesDelivered {
      _ = try t.delete(.delivered, app: app, identifier: identifier)
      try t.store.releaseAttachments(.delivered, app: app, identifier: identifier, db: t.db)
      outcome.discardedFiles = try t.store.collectAttachments(app: app, identifier: identifier, db: t.db)
      outcome.removed = true
      let event = Event(at: response.at, kind: .deliveredRemoved, identifiers: [identifier],
                        note: "answered with \(response.actionIdentifier)")
      outcome.events.append(try t.append(event, app: app))
    }
    return outcome
  }

  /// Whether `current` is still the delivery `checked` was read from: a ring's end recorded
  /// meanwhile (`EndRing`: timed out while an extension was asked, closed on the desktop as
  /// the dismissal is answered) marks it, it does not make it another delivery.
  private static func isSame(_ current: DeliveredNotification?, as checked: DeliveredNotification) -> Bool {
    guard var current else { return false }
    var checked = checked
    current.ringEnded = nil
    checked.ringEnded = nil
    return current == checked
  }
}
