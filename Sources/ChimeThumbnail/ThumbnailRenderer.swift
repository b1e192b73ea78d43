public import ChimeCore
import ChimeSystem

/// Pixels as packed 8-bit RGBA rows, top row first.
public struct RGBAFrame: Sendable, Hashable {
  public var width: Int
  public var height: Int
  /// `width × height × 4` bytes.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The RGBA value at (`x`, `y`).
  public func pixel(x: Int, y: Int) -> [UInt8] {
    let i = (y * width + x) * 4
    return Array(pixels[i..<i + 4])
  }
}

/// Renders an attachment's thumbnail as UNNotificationAttachment's options describe it: the
/// frame (an animated GIF or PNG's frame index, a movie's instant), then the clipping rectangle
/// cropped out, then scaled to fit the box keeping the aspect ratio, written as PNG.
///
/// Blocking (decoding, up to a 50 MB movie): chimed runs it on the work pool, never the loop.
/// Stills are decoded by gdk-pixbuf with the loader of the inspected type; frames of
/// animations and movies by FFmpeg; gdk-pixbuf crops, scales and encodes.
public enum ThumbnailRenderer {
  /// The most source pixels decoded (a 10 MB PNG can declare far more than memory holds).
  public static let maxSourcePixels = 50_000_000

  /// The thumbnail of the file at `path`, as PNG bytes.
  ///
  /// - Parameter facts: the inspector's facts about the file (type, size, frame count,
  ///   duration); `options` should have passed `AttachmentOptionsValidator` against them, and
  ///   values outside the file are clamped to it.
  /// - Throws: FAILED_PRECONDITION `THUMBNAIL_NOT_AVAILABLE` for audio; INTERNAL
  ///   `THUMBNAIL_RENDER_FAILED` when the pixels do not decode, the image is too large to
  ///   decode, or the PNG cannot be made; `ATTACHMENT_INVALID_URL` when the file cannot be read.
  public static func render(path: String, facts: MediaFacts, options: AttachmentOptions,
                            box: ThumbnailBox = .default) throws(ChimeError) -> [UInt8] {
    let (frame, shape) = try shapedSource(path: path, facts: facts, options: options)
    let crop = ThumbnailGeometry.crop(options.thumbnailClippingRect, width: frame.width, height: frame.height)
    // The box fits what the viewer sees: a non-square pixel is stretched to its shape.
    let shown = shape.displaySize(width: crop.width, height: crop.height)
    let size = ThumbnailGeometry.fit(width: shown.width, height: shown.height, in: box)
    return try frame.cropped(crop).scaled(width: size.width, height: size.height).png()
  }

  /// The full frame the options pick, before cropping and scaling.
  static func source(path: String, facts: MediaFacts, options: AttachmentOptions) throws(ChimeError) -> Pixbuf {
    try shapedSource(path: path, facts: facts, options: options).frame
  }

  /// The full frame the options pick, turned as shown, and the shape of its pixels.
  static func shapedSource(path: String, facts: MediaFacts, options: AttachmentOptions) throws(ChimeError) -> (frame: Pixbuf, shape: PixelShape) {
    guard facts.mediaClass != .audio else {
      throw ChimeError(.thumbnailNotAvailable, "\(facts.type.uti) is audio: only images and movies have a thumbnail")
    }
    guard Int(facts.width) * Int(facts.height) <= maxSourcePixels else {
      throw ChimeError(.thumbnailRenderFailed, "the image is \(facts.width)×\(facts.height), more than \(maxSourcePixels) pixels can be rendered")
    }
    switch facts.mediaClass {
    case .movie:
      let seconds = ThumbnailGeometry.movieTime(time: options.thumbnailTime, duration: facts.durationSeconds)
      let decoded = try VideoFrameDecoder.decode(path: path, format: nil, selection: .seconds(seconds), maxPixels: maxSourcePixels)
      // Turned as the movie is shown, so the clipping rectangle means what the viewer sees; a
      // quarter turn puts the pixel's stretch on the other axis.
      let turned = decoded.rotation == 90 || decoded.rotation == 270
      let shape = PixelShape(x: turned ? 1 : decoded.sampleAspect, y: turned ? decoded.sampleAspect : 1)
      return (try Pixbuf.make(decoded.frame).rotated(clockwise: decoded.rotation), shape)
    case .image where facts.isAnimated:
      let index = ThumbnailGeometry.frameIndex(time: options.thumbnailTime, frameCount: Int(facts.frameCount))
      let format = facts.type == .gif ? "gif" : "apng"
      return (try Pixbuf.make(VideoFrameDecoder.decode(path: path, format: format, selection: .index(index), maxPixels: maxSourcePixels).frame), .square)
    default:
      return (try Pixbuf.decode(readAll(path), loaderType: loaderType(facts.type)), .square)
    }
  }

  /// How wide and tall one pixel of a frame is shown, relative to each other.
  struct PixelShape {
    var x: Double
    var y: Double
    static let square = PixelShape(x: 1, y: 1)

    /// `width`×`height` pixels as the viewer sees them: the stretched side scaled, rounded.
    func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
      guard x != y, x > 0, y > 0 else { return (width, height) }
      let w = Double(width) * x / min(x, y), h = Double(height) * y / min(x, y)
      return (max(1, Int(min(w.rounded(), 1e9))), max(1, Int(min(h.rounded(), 1e9))))
    }
  }

  /// Decodes a PNG (a rendered thumbnail) into RGBA pixels: what a test or a tool checks.
  /// - Throws: `THUMBNAIL_RENDER_FAILED` when the bytes are not a PNG that decodes.
  public static func decodePNG(_ bytes: [UInt8]) throws(ChimeError) -> RGBAFrame {
    try Pixbuf.decode(bytes, loaderType: "png").frame()
  }

  private static func loaderType(_ type: MediaType) -> String {
    switch type {
    case .jpeg: "jpeg"
    case .gif: "gif"
    default: "png"
    }
  }

  private static func readAll(_ path: String) throws(ChimeError) -> [UInt8] {
    let file: RegularFile
    do throws(RegularFile.OpenFailure) {
      file = try RegularFile.open(path)
    } catch {
      throw ChimeError(.attachmentInvalidURL, error.message)
    }
    defer { file.close() }
    guard file.size <= MediaClass.image.byteLimit else {
      throw ChimeError(.attachmentInvalidFileSize, "\(path) is \(file.size) bytes, over the image limit of \(MediaClass.image.byteLimit)")
    }
    do throws(ChimeError) {
      return try file.byteSource.read(at: 0, count: file.size)
    } catch {
      throw ChimeError(.thumbnailRenderFailed, "\(path) could not be read: \(error.message)")
    }
  }
}
