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
  /// Service extensions: a pushed notification whose content it may replace.
  public var serviceRequest: ServiceRequest?
  /// Service extensions: the deadline of the request with this id passed; send the best attempt.
  public var serviceTimeWillExpire: UInt64

  public init(registered: Bool = false, delivered: DeliveredNotification? = nil, response: NotificationResponse? = nil, responseID: UInt64 = 0,
              media: MediaPress? = nil, serviceRequest: ServiceRequest? = nil, serviceTimeWillExpire: UInt64 = 0) {
    self.serviceRequest = serviceRequest
    self.serviceTimeWillExpire = serviceTimeWillExpire
    self.responseID = responseID
    self.media = media
    self.registered = registered
    self.delivered = delivered
    self.response = response
  }
}
