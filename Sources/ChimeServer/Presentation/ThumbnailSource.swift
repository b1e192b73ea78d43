public import ChimeCore

/// Where the image a desktop notification shows (`image-path`) comes from. Called on the work
/// pool, never on the loop: an implementation may read and render files.
public protocol ThumbnailSource: Sendable {
  /// A file path the notification server can read, or nil for no image.
  func thumbnailPath(for notification: DeliveredNotification) -> String?
}

/// The stored file of the first image attachment whose thumbnail is not hidden, as is (no
/// clipping, no rendering): the stand-in until a renderer is plugged in.
public struct StoredImageThumbnail: ThumbnailSource {
  public init() {}

  public func thumbnailPath(for notification: DeliveredNotification) -> String? {
    ThumbnailChoice.storedImagePath(notification)
  }
}
