import ChimeCore
import ChimeSystem
import Logging

/// The thumbnail cache: each attachment's thumbnail is rendered once, on the work pool, and kept
/// beside its file as `<stored file>.thumb-<W>x<H>.png` (the box is in the name, so a restart
/// with another `--thumbnail-box` never serves a thumbnail of the old size). It lives exactly as
/// long as the attachment: `discard` unlinks it with its file, and the start-up sweep keeps it
/// only while its file is held (and removes those of other boxes). Thumbnails do not count towards the app's attachment quota: chimed makes them, an app
/// cannot grow them (a few tens of KB at most for the default box), and counting them would make
/// an app's next add succeed or fail depending on whether a presenter had shown something yet.
extension AttachmentStore {
  /// What a thumbnail's name adds to its attachment's store file name, e.g. `.thumb-300x169.png`.
  var thumbnailSuffix: String { ".thumb-\(thumbnailBox.width)x\(thumbnailBox.height).png" }

  /// The PNG thumbnail of the first attachment of `notification` whose thumbnail is not hidden
  /// and that is an image or a movie, rendered on first use; nil when there is none or it cannot
  /// be rendered (the failure is logged).
  ///
  /// Blocking (decoding a movie frame): call from the work pool, never the loop.
  ///
  /// - Parameter app: the app's id, for the log only (the store path already names it).
  func thumbnailPath(for notification: DeliveredNotification, app: String = "") -> String? {
    let attachments = notification.request.content.attachments
    guard let first = attachments.first(where: Self.hasThumbnail) else { return nil }
    return thumbnailPath(for: first, app: app)
  }

  /// True for an attachment that shows a thumbnail: stored, an image or a movie, not hidden.
  static func hasThumbnail(_ attachment: Attachment) -> Bool {
    guard !attachment.options.thumbnailHidden, let info = attachment.info else { return false }
    return info.mediaClass == MediaClass.image.rawValue || info.mediaClass == MediaClass.movie.rawValue
  }

  /// The PNG thumbnail of one stored attachment, rendered on first use into the store; nil when
  /// it has none (hidden, audio, not stored), thumbnails are off (no helper), or rendering fails
  /// (logged with its reason).
  ///
  /// Blocking: call from the work pool, never the loop.
  func thumbnailPath(for attachment: Attachment, app: String = "") -> String? {
    guard let result = thumbnail(for: attachment) else { return nil }
    switch result {
    case .success(let path):
      return path
    case .failure(let error):
      logger.warning("attachment thumbnail not rendered",
                     metadata: ["app": "\(app)", "attachment": "\(attachment.identifier)",
                                "file": "\(attachment.info?.storePath ?? "")",
                                "reason": "\(error.reason)", "error": "\(error.message)"])
      return nil
    }
  }

  /// The thumbnail of `attachment`, or why it was not rendered; nil when it has none or
  /// thumbnails are off. The PNG is rendered by `chime-thumbnail` (a crash, a timeout or a
  /// refusal of the helper is INTERNAL `THUMBNAIL_RENDER_FAILED`, its message saying which),
  /// which writes it atomically: a reader (a notification server) never sees half a PNG, and two
  /// renders racing for the same attachment both leave a whole one. A helper killed mid-write
  /// leaves its temporary, which `ThumbnailHelper` removes (and the start-up sweep would).
  ///
  /// Blocking: call from the work pool, never the loop.
  func thumbnail(for attachment: Attachment) -> Result<String, ChimeError>? {
    guard let thumbnailer, Self.hasThumbnail(attachment), let info = attachment.info,
          let stored = storePath(info.storePath), let type = MediaType(uti: info.type) else { return nil }
    let thumbnail = stored + thumbnailSuffix
    if FileSystem.lstatus(thumbnail)?.kind == .regular { return .success(thumbnail) }
    let facts = MediaFacts(type: type, bytes: info.bytes, width: info.width, height: info.height,
                           durationSeconds: info.durationSeconds, frameCount: info.frameCount)
    var job = ThumbnailJob(file: stored, facts: facts, options: attachment.options, box: thumbnailBox, output: thumbnail)
    job.mode = 0o600
    do throws(ThumbnailHelper.Failure) {
      _ = try thumbnailer.render(job)
      return .success(thumbnail)
    } catch {
      return .failure(error.error)
    }
  }
}
