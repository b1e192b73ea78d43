/// A mutable pushed notification shown to the app's service extension, which may answer with
/// new content by `deadline` (UNNotificationServiceExtension.didReceive).
public struct ServiceRequest: Hashable, Sendable {
  public var id: UInt64
  public var request: NotificationRequest
  public var deadline: Instant

  public init(id: UInt64, request: NotificationRequest, deadline: Instant) {
    self.id = id
    self.request = request
    self.deadline = deadline
  }
}

/// How a service request ended.
public enum ServiceAnswer: Hashable, Sendable {
  /// The content to deliver instead.
  case content(NotificationContent)
  /// The extension said it failed.
  case failed(String)
  /// Nothing came by the deadline and the grace period after it.
  case timedOut
  /// The extension's connection ended (or chimed is stopping) before it answered.
  case disconnected
}

/// What `AnswerService` carries.
public struct ServiceAnswerRequest: Hashable, Sendable {
  public var extensionIdentifier: String
  public var requestID: UInt64
  /// `.content` or `.failed`; the other cases are never sent.
  public var answer: ServiceAnswer

  public init(extensionIdentifier: String, requestID: UInt64, answer: ServiceAnswer) {
    self.extensionIdentifier = extensionIdentifier
    self.requestID = requestID
    self.answer = answer
  }
}
