import ChimeCore

/// A presenter could not show or sound one delivery. The delivery stands; this is logged and
/// streamed to the app's subscribers as a live `presentation-failed` event.
struct PresentationFailure: Error, CustomStringConvertible {
  /// `freedesktop`, `command` or `sound`.
  var presenter: String
  var app: String
  var identifier: String
  var reason: String

  var description: String { "\(presenter): \(reason)" }
}
