import ChimeCore

/// What the presenters ask of the service that holds them, and nothing more: an app's
/// permissions as they are when a delivery is shown, a live event for the app's subscribers
/// (a presentation that failed), and a click on the desktop answered as `Respond` is.
/// Loop thread only.
protocol PresentationHost: AnyObject {
  /// The options `app` may deliver with now (its authorization under the daemon's policy).
  func deliveryPermissions(of app: String) -> AuthorizationOptions
  /// Sends `kind` about `identifier` to `app`'s subscribers as a live event (not stored).
  func publishLive(_ kind: Event.Kind, identifier: String, note: String, app: String)
  /// A response from the desktop (a button, the body, a dismissal): content extensions first,
  /// as for a response a client sends. Failures are the host's to log.
  func respondFromDesktop(app: String, response: NotificationResponse)
  /// The ring of `identifier` (delivered at `deliveredAt`) ended for `why`: recorded on the
  /// notification and told to the app's subscribers as a `ring-ended` event.
  func ringEnded(app: String, identifier: String, deliveredAt: Instant, why: RingEnd)
}
