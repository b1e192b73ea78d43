/// Checks an attachment's options against the facts of its file (UNNotificationAttachment's
/// thumbnail options).
public enum AttachmentOptionsValidator {
  /// - Parameters:
  ///   - field: the path of the options, e.g. `request.content.attachments[0].options`; errors
  ///     name the member below it (`.thumbnail_clipping_rect`, `.thumbnail_time`).
  /// - Throws: INVALID_ARGUMENT with reason `INVALID_THUMBNAIL_CLIPPING_RECT` (a value not
  ///   finite, x or y below 0, width or height not above 0, or the rectangle leaving the unit
  ///   square) or `INVALID_THUMBNAIL_TIME` (given for a still image or audio; for an animated
  ///   GIF or PNG not a whole frame index below the frame count; for a movie not within
  ///   0…duration seconds, or negative when the movie's duration is unknown).
  public static func validate(_ options: AttachmentOptions, facts: MediaFacts, field: String) throws(ChimeError) {
    if let rect = options.thumbnailClippingRect {
      let f = "\(field).thumbnail_clipping_rect"
      let values = [rect.x, rect.y, rect.width, rect.height]
      guard values.allSatisfy(\.isFinite) else {
        throw ChimeError(.invalidThumbnailClippingRect, "clipping rect values must be finite numbers", field: f)
      }
      guard rect.x >= 0, rect.y >= 0 else {
        throw ChimeError(.invalidThumbnailClippingRect, "clipping rect origin (\(rect.x), \(rect.y)) must not be negative", field: f)
      }
      guard rect.width > 0, rect.height > 0 else {
        throw ChimeError(.invalidThumbnailClippingRect, "clipping rect size \(rect.width)×\(rect.height) must be greater than 0", field: f)
      }
      guard rect.x + rect.width <= 1, rect.y + rect.height <= 1 else {
        throw ChimeError(.invalidThumbnailClippingRect, "clipping rect (\(rect.x), \(rect.y), \(rect.width), \(rect.height)) leaves the unit square", field: f)
      }
    }
    if let time = options.thumbnailTime {
      let f = "\(field).thumbnail_time"
      guard time.isFinite else {
        throw ChimeError(.invalidThumbnailTime, "thumbnail time must be a finite number", field: f)
      }
      switch facts.mediaClass {
      case .movie where facts.durationSeconds <= 0:
        // The container does not say how long it is (a fragmented MPEG-4 without a duration in
        // its movie header, an MPEG program stream): any time from 0 on is accepted.
        guard time >= 0 else {
          throw ChimeError(.invalidThumbnailTime, "thumbnail time \(time) s must not be negative", field: f)
        }
      case .movie:
        guard time >= 0, time <= facts.durationSeconds else {
          throw ChimeError(.invalidThumbnailTime, "thumbnail time \(time) s is outside the movie's 0…\(facts.durationSeconds) s", field: f)
        }
      case .image where facts.isAnimated:
        guard time >= 0, time.rounded(.towardZero) == time, time < Double(facts.frameCount) else {
          throw ChimeError(.invalidThumbnailTime, "thumbnail time for an animated \(facts.type == .gif ? "GIF" : "PNG") is a frame index 0…\(facts.frameCount - 1) (got \(time))", field: f)
        }
      case .image:
        throw ChimeError(.invalidThumbnailTime, "thumbnail time is only for animated GIFs, animated PNGs and movies; \(facts.type.uti) is a still image", field: f)
      case .audio:
        throw ChimeError(.invalidThumbnailTime, "thumbnail time is only for animated GIFs, animated PNGs and movies, not audio (\(facts.type.uti))", field: f)
      }
    }
  }
}
