/// What a content extension's stream carries: first `registered`, then each notification
/// delivered in its categories and each response to one.
public struct ExtensionEvent: Hashable, Sendable {
  public var registered: Bool
  public var delivered: DeliveredNotification?
  public var response: NotificationResponse?

  public init(registered: Bool = false, delivered: DeliveredNotification? = nil, response: NotificationResponse? = nil) {
    self.registered = registered
    self.delivered = delivered
    self.response = response
  }
}
