import ChimeCore
import ChimeStore

/// Media play/pause buttons of content extensions: the user presses one (shown to the live
/// extension of the notification's category as `ExtensionEvent.media`), the extension reports
/// its media started or paused playing (kept with the delivered notification).
extension ResponseService {
  /// Shows a press of `press.notificationIdentifier`'s media button to the first live
  /// extension (by identifier) of its category; answers that extension's identifier.
  ///
  /// Fails with INVALID_ARGUMENT `INVALID_IDENTIFIER`, NOT_FOUND `NOTIFICATION_NOT_DELIVERED`,
  /// FAILED_PRECONDITION `EXTENSION_NOT_LIVE`, `MEDIA_BUTTON_NOT_AVAILABLE`.
  func pressMediaButton(app: String, press: MediaPress, reply: @escaping Reply<String>) {
    do {
      try RequestValidator.validateIdentifier(press.notificationIdentifier, field: "notification_identifier")
    } catch {
      return reply(.failure(error))
    }
    let database = context.database, identifier = press.notificationIdentifier
    context.loop.runBlocking(catching: { () throws(ChimeError) in
      try database.delivered(app: app, identifier: identifier)
    }, then: { [self] (read: Result<DeliveredNotification?, ChimeError>) in
      reply(Result { () throws(ChimeError) -> String in
        let delivered = try read.get()
        let category = delivered?.request.content.categoryIdentifier ?? ""
        let target = try MediaControl.checkPress(identifier, delivered: delivered, live: context.extensions.hub.live(app: app, category: category))
        guard context.extensions.hub.send(ExtensionEvent(media: press), app: app, to: target) else {
          throw ChimeError(.extensionNotLive, "content extension \"\(target)\" went away", field: "notification_identifier")
        }
        return target
      })
    })
  }

  /// Keeps what extension `report.extensionIdentifier` reports about a delivered
  /// notification's media.
  ///
  /// Fails with INVALID_ARGUMENT `INVALID_IDENTIFIER`, NOT_FOUND `NOTIFICATION_NOT_DELIVERED`,
  /// FAILED_PRECONDITION `EXTENSION_NOT_LIVE` (not live, or not for the notification's category).
  func reportMediaPlayback(app: String, report: MediaPlaybackReport, reply: @escaping Reply<DeliveredNotification>) {
    do {
      try RequestValidator.validateIdentifier(report.notificationIdentifier, field: "notification_identifier")
      // The registration is checked here (only the loop knows it); the notification and its
      // category in the write transaction.
      let registration = context.extensions.hub.registration(app: app, identifier: report.extensionIdentifier)
      if registration == nil { try MediaControl.checkReport(report, delivered: nil, registration: nil) }
      context.writer.submit(SetMediaPlayback(app: app, report: report, categories: registration?.categoryIdentifiers ?? []), completion: reply)
    } catch {
      reply(.failure(error))
    }
  }
}
