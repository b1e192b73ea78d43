public import ChimeCore

/// Where the image a desktop notification shows (`image-path`) comes from. Called on the work
/// pool, never on the loop: an implementation may read and render files.
public protocol ThumbnailSource: Sendable {
  /// A file path the notification server can read, or nil for no image.
  func thumbnailPath(for notification: DeliveredNotification) -> String?
}

/// The thumbnail the first image or movie attachment's options describe (clip rectangle, frame
/// or movie time, scaled to the thumbnail box), rendered once into the attachment store and
/// freed with the attachment. What chimed shows unless a test names another source.
struct RenderedThumbnails: ThumbnailSource {
  let store: AttachmentStore

  func thumbnailPath(for notification: DeliveredNotification) -> String? {
    store.thumbnailPath(for: notification)
  }
}

/// The stored file of the first image attachment whose thumbnail is not hidden, as is (no
/// clipping, no rendering).
public struct StoredImageThumbnail: ThumbnailSource {
  public init() {}

  public func thumbnailPath(for notification: DeliveredNotification) -> String? {
    ThumbnailChoice.storedImagePath(notification)
  }
}
