public import ChimeCore

/// Keeps what a content extension reported about a delivered notification's media
/// (`DeliveredNotification.mediaPlayback`), after checking in the same transaction that the
/// notification is still delivered and in one of `categories` (those the reporting
/// extension handles). No event: subscribers are not told; `GetDelivered` shows it.
public struct SetMediaPlayback: Mutation {
  public var app: String
  public var report: MediaPlaybackReport
  /// The categories of the reporting extension's live registration.
  public var categories: [String]

  public init(app: String, report: MediaPlaybackReport, categories: [String]) {
    self.app = app
    self.report = report
    self.categories = categories
  }

  /// The delivered notification as now stored.
  public typealias Outcome = DeliveredNotification

  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`, FAILED_PRECONDITION `EXTENSION_NOT_LIVE`
  ///   (see `MediaControl.checkReport`).
  public func apply(in t: WriteTransaction) throws -> DeliveredNotification {
    let identifier = report.notificationIdentifier
    try WriteTransaction.check(app: app, identifier: identifier)
    let select = try t.db.cachedStatement(sql: "SELECT body FROM delivered WHERE app = ? AND identifier = ?")
    let current = try Row.fetchOne(select, arguments: [app, identifier]).map { row in try ChimeDatabase.delivered(from: row, codec: t.codec) }
    let registration = ExtensionRegistration(extensionIdentifier: report.extensionIdentifier, categoryIdentifiers: categories)
    try MediaControl.checkReport(report, delivered: current, registration: registration)
    guard var delivered = current else { throw ChimeError(.notificationNotDelivered, "\"\(identifier)\" is not delivered") }
    delivered.mediaPlayback = report.playback
    try t.storeDelivered(delivered, app: app)
    return delivered
  }
}
