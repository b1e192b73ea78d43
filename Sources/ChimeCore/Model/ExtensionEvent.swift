/// What a content extension's stream carries: first `registered`, then each notification
/// delivered in its categories, each response to one and each press of one's media button.
public struct ExtensionEvent: Hashable, Sendable {
  public var registered: Bool
  public var delivered: DeliveredNotification?
  public var response: NotificationResponse?
  /// Non-zero on a response chimed waits for the extension to answer (`AnswerResponse`).
  public var responseID: UInt64
  /// The user pressed the media play/pause button of a notification in its categories.
  public var media: MediaPress?

  public init(registered: Bool = false, delivered: DeliveredNotification? = nil, response: NotificationResponse? = nil, responseID: UInt64 = 0,
              media: MediaPress? = nil) {
    self.responseID = responseID
    self.media = media
    self.registered = registered
    self.delivered = delivered
    self.response = response
  }
}
