public struct AttachmentOptions: Hashable, Sendable {
  /// A UTI such as `public.png`, used only where the bytes are ambiguous.
  public var typeHint: String = ""
  public var thumbnailHidden: Bool = false
  public var thumbnailClippingRect: ClipRect?
  /// Animated GIF: frame index; movie: seconds.
  public var thumbnailTime: Double?

  public init() {}
}

/// Facts about a stored attachment, filled by the daemon.
public struct AttachmentInfo: Hashable, Sendable {
  public var storePath: String = ""
  public var type: String = ""
  public var mediaClass: String = ""
  public var bytes: UInt64 = 0
  public var width: UInt32 = 0
  public var height: UInt32 = 0
  public var durationSeconds: Double = 0
  public var frameCount: UInt32 = 0

  public init() {}
}

/// A file attached to a notification (UNNotificationAttachment).
public struct Attachment: Hashable, Sendable {
  public var identifier: String
  /// Absolute path of the source file when the request is added.
  public var path: String
  public var options: AttachmentOptions
  public var info: AttachmentInfo?

  public init(identifier: String = "", path: String, options: AttachmentOptions = AttachmentOptions(), info: AttachmentInfo? = nil) {
    self.identifier = identifier
    self.path = path
    self.options = options
    self.info = info
  }
}
