/// How a pushed notification's content came to be: recorded with the delivered notification
/// and shown in its `delivered` event.
public struct PushDelivery: Hashable, Sendable {
  public enum Source: String, Hashable, Sendable {
    /// The payload's content.
    case original
    /// The service extension's answer.
    case `extension`
    /// The service extension's answer sent after it was told its time would expire.
    case bestAttempt = "best-attempt"
  }

  /// `aps.mutable-content` was 1.
  public var mutableContent: Bool
  public var source: Source
  /// Why the original was delivered to a mutable push (a `Reason` name), else empty.
  public var reason: String
  public var message: String
  /// The service extension asked, else empty.
  public var extensionIdentifier: String
  /// Attachments of the extension's answer that were refused; the rest was delivered.
  public var refusedAttachments: [RefusedAttachment]

  public init(mutableContent: Bool, source: Source = .original, reason: String = "", message: String = "", extensionIdentifier: String = "",
              refusedAttachments: [RefusedAttachment] = []) {
    self.mutableContent = mutableContent
    self.source = source
    self.reason = reason
    self.message = message
    self.extensionIdentifier = extensionIdentifier
    self.refusedAttachments = refusedAttachments
  }

  /// One line for the `delivered` event's note.
  public var note: String {
    var text: String
    switch source {
    case .original where reason.isEmpty: text = "pushed; original content delivered"
    case .original: text = "pushed; original content delivered: \(reason): \(message)"
    case .extension: text = "pushed; content from service extension \"\(extensionIdentifier)\""
    case .bestAttempt: text = "pushed; best attempt of service extension \"\(extensionIdentifier)\" after its deadline"
    }
    for refused in refusedAttachments {
      text += "; attachment \(refused.path) refused: \(refused.reason): \(refused.message)"
    }
    return text
  }
}

/// An attachment a service extension answered with that was not delivered, and why.
public struct RefusedAttachment: Hashable, Sendable {
  public var identifier: String
  public var path: String
  /// A `Reason` name, as `Add` would have refused the file with.
  public var reason: String
  public var message: String
  public var field: String

  public init(identifier: String = "", path: String, reason: String, message: String, field: String = "") {
    self.identifier = identifier
    self.path = path
    self.reason = reason
    self.message = message
    self.field = field
  }
}

/// What `Push` answers: the delivered notification (its `push` says which content and why).
public struct PushResult: Hashable, Sendable {
  public var delivered: DeliveredNotification
  /// A pending request with the same identifier was replaced.
  public var replaced: Bool

  public init(delivered: DeliveredNotification, replaced: Bool = false) {
    self.delivered = delivered
    self.replaced = replaced
  }
}

/// What `Push` takes: the payload's bytes and its `apns-collapse-id`.
public struct PushSubmission: Hashable, Sendable {
  public var payload: [UInt8]
  /// Empty gets a generated identifier.
  public var identifier: String

  public init(payload: [UInt8], identifier: String = "") {
    self.payload = payload
    self.identifier = identifier
  }
}
