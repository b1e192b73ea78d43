import ChimeCore
import ChimeSystem
import ChimeThumbnail
import Foundation
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
  /// it has none (hidden, audio, not stored) or rendering fails (logged).
  ///
  /// Blocking: call from the work pool, never the loop.
  func thumbnailPath(for attachment: Attachment, app: String = "") -> String? {
    guard Self.hasThumbnail(attachment), let info = attachment.info,
          let stored = storePath(info.storePath), let type = MediaType(uti: info.type) else { return nil }
    let thumbnail = stored + thumbnailSuffix
    if FileSystem.lstatus(thumbnail)?.kind == .regular { return thumbnail }
    let facts = MediaFacts(type: type, bytes: info.bytes, width: info.width, height: info.height,
                           durationSeconds: info.durationSeconds, frameCount: info.frameCount)
    do throws(ChimeError) {
      let png = try ThumbnailRenderer.render(path: stored, facts: facts, options: attachment.options, box: thumbnailBox)
      try writeAtomically(png, to: thumbnail)
      return thumbnail
    } catch {
      logger.warning("attachment thumbnail not rendered",
                     metadata: ["app": "\(app)", "attachment": "\(attachment.identifier)", "file": "\(stored)",
                                "reason": "\(error.reason)", "error": "\(error.message)"])
      return nil
    }
  }

  /// Writes `bytes` to a private temporary file beside `path` and renames it into place, so a
  /// reader (a notification server) never sees half a PNG, and two renders racing for the same
  /// attachment both leave a whole one. A crash leaves only the temporary, which no row names:
  /// the start-up sweep removes it.
  private func writeAtomically(_ bytes: [UInt8], to path: String) throws(ChimeError) {
    let temporary = path + ".staging-" + UUID().uuidString.lowercased()
    do throws(Errno) {
      let fd = try FileDescriptor.createNew(temporary, mode: 0o600)
      defer { fd.close() }
      var failure: Errno?
      bytes.withUnsafeBytes { buffer in
        do throws(Errno) { try fd.writeAll(buffer) } catch { failure = error }
      }
      if let failure { throw failure }
      try FileSystem.rename(temporary, to: path)
    } catch {
      try? FileSystem.unlink(temporary)
      throw ChimeError(.thumbnailRenderFailed, "cannot write the thumbnail \(path): \(error)")
    }
  }
}
