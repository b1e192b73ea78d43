/// The box a thumbnail is scaled to fit, in pixels. The default is the size Apple's thumbnail
/// Q&A gives for a notification's attachment thumbnail, 300×169 points (≈ 16:9).
public struct ThumbnailBox: Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  /// The largest side accepted: a thumbnail is a small picture, not a re-encode of the image.
  public static let maxSide = 4096
  public static let `default` = ThumbnailBox(width: 300, height: 169)

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var description: String { "\(width)x\(height)" }

  /// Parses `WxH` (e.g. `300x169`; `X` and `×` work too).
  /// - Throws: INVALID_ARGUMENT `INVALID_THUMBNAIL_BOX` when the text is not two whole numbers
  ///   in 1…4096.
  public init(parsing text: String, field: String = "") throws(ChimeError) {
    let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" }).map(String.init)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
      throw ChimeError(.invalidThumbnailBox, "thumbnail box \"\(text)\" is not WxH, e.g. 300x169", field: field)
    }
    guard (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else {
      throw ChimeError(.invalidThumbnailBox, "thumbnail box \(w)x\(h) must be 1…\(Self.maxSide) pixels on each side", field: field)
    }
    self.init(width: w, height: h)
  }
}

/// A rectangle of whole pixels, origin at the top left.
public struct PixelRect: Hashable, Sendable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// The pure arithmetic of a thumbnail (UNNotificationAttachment's thumbnail options): which
/// pixels the clipping rectangle keeps, the size that fits the box, and which frame or instant
/// is shown. The renderer only carries these answers out.
public enum ThumbnailGeometry {
  /// The pixels a normalized clipping rectangle (origin at the top left) keeps of a
  /// `width`×`height` image. Edges are rounded to the nearest pixel, clamped to the image, and
  /// the result is at least one pixel each way. No rectangle (or one that is not finite) keeps
  /// the whole image.
  public static func crop(_ clip: ClipRect?, width: Int, height: Int) -> PixelRect {
    let w = max(width, 1), h = max(height, 1)
    guard let clip, [clip.x, clip.y, clip.width, clip.height].allSatisfy(\.isFinite) else {
      return PixelRect(x: 0, y: 0, width: w, height: h)
    }
    let (x0, x1) = span(clip.x, clip.width, w)
    let (y0, y1) = span(clip.y, clip.height, h)
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Start and end pixel of a normalized span over `size` pixels: rounded, clamped, ≥ 1 wide.
  private static func span(_ origin: Double, _ length: Double, _ size: Int) -> (Int, Int) {
    let total = Double(size)
    var start = Int(min(max((origin * total).rounded(), 0), total - 1))
    var end = Int(min(max(((origin + length) * total).rounded(), 0), total))
    if end <= start {
      end = min(start + 1, size)
      start = end - 1
    }
    return (start, end)
  }

  /// The largest size with the aspect ratio of `width`×`height` that fits `box` (scaled up or
  /// down), each side rounded and at least 1.
  public static func fit(width: Int, height: Int, in box: ThumbnailBox) -> (width: Int, height: Int) {
    let w = Double(max(width, 1)), h = Double(max(height, 1))
    let scale = min(Double(box.width) / w, Double(box.height) / h)
    let fw = min(max(Int((w * scale).rounded()), 1), box.width)
    let fh = min(max(Int((h * scale).rounded()), 1), box.height)
    return (fw, fh)
  }

  /// The frame of an animated image to show: the thumbnail time taken as a frame index (whole
  /// part), clamped to `0..<frameCount`; frame 0 without a time.
  public static func frameIndex(time: Double?, frameCount: Int) -> Int {
    guard let time, time.isFinite, frameCount > 1 else { return 0 }
    return Int(min(max(time.rounded(.towardZero), 0), Double(frameCount - 1)))
  }

  /// The instant of a movie to show, in seconds: the thumbnail time clamped to
  /// `0…duration` (not above when the duration is unknown, 0); 0 without a time.
  public static func movieTime(time: Double?, duration: Double) -> Double {
    guard let time, time.isFinite, time > 0 else { return 0 }
    guard duration.isFinite, duration > 0 else { return time }
    return min(time, duration)
  }
}
