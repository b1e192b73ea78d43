internal import CGdkPixbuf
import ChimeCore

/// An RGBA image held by gdk-pixbuf: the one file that calls it. Decodes a still image through
/// the loader of the type the inspector decided (never by sniffing, so no other loader sees the
/// bytes), crops, scales and encodes PNG.
final class Pixbuf {
  private let pointer: OpaquePointer

  private init(taking pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
  var height: Int { Int(gdk_pixbuf_get_height(pointer)) }

  /// Decodes `bytes` with gdk-pixbuf's loader for `loaderType` (`png`, `jpeg`, `gif`; for an
  /// animation, its first frame), applying a JPEG's EXIF orientation.
  static func decode(_ bytes: [UInt8], loaderType: String) throws(ChimeError) -> Pixbuf {
    var error: UnsafeMutablePointer<GError>?
    guard let loader = gdk_pixbuf_loader_new_with_type(loaderType, &error) else {
      throw failure("no gdk-pixbuf loader for \(loaderType)", error)
    }
    defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
    let written = bytes.withUnsafeBufferPointer { buffer in
      gdk_pixbuf_loader_write(loader, buffer.baseAddress, gsize(buffer.count), &error)
    }
    // Close even after a failed write: the loader must not be freed open.
    var closeError: UnsafeMutablePointer<GError>?
    let closed = gdk_pixbuf_loader_close(loader, &closeError)
    guard written != 0 else {
      if let closeError { g_error_free(closeError) }
      throw failure("the \(loaderType) image does not decode", error)
    }
    guard closed != 0 else { throw failure("the \(loaderType) image does not decode", closeError) }
    guard let decoded = gdk_pixbuf_loader_get_pixbuf(loader) else {
      throw failure("the \(loaderType) image gave no pixels", nil)
    }
    // The loader owns `decoded`; the oriented copy (or a new reference) is ours.
    guard let oriented = gdk_pixbuf_apply_embedded_orientation(decoded) else {
      throw failure("the \(loaderType) image could not be oriented", nil)
    }
    return try rgba(Pixbuf(taking: oriented))
  }

  /// A pixbuf holding a copy of `frame`'s pixels.
  static func make(_ frame: RGBAFrame) throws(ChimeError) -> Pixbuf {
    guard let p = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(frame.width), Int32(frame.height)) else {
      throw failure("cannot allocate a \(frame.width)×\(frame.height) image", nil)
    }
    let image = Pixbuf(taking: p)
    let stride = Int(gdk_pixbuf_get_rowstride(p))
    let pixels = gdk_pixbuf_get_pixels(p)!
    frame.pixels.withUnsafeBufferPointer { source in
      for row in 0..<frame.height {
        (pixels + row * stride).update(from: source.baseAddress! + row * frame.width * 4, count: frame.width * 4)
      }
    }
    return image
  }

  /// Every image as 8-bit RGBA, so pixels read the same way whatever the file held.
  private static func rgba(_ image: Pixbuf) throws(ChimeError) -> Pixbuf {
    if gdk_pixbuf_get_has_alpha(image.pointer) != 0 { return image }
    guard let p = gdk_pixbuf_add_alpha(image.pointer, 0, 0, 0, 0) else {
      throw failure("cannot add an alpha channel", nil)
    }
    return Pixbuf(taking: p)
  }

  /// The pixels of `rect` (which must lie inside the image), copied.
  func cropped(_ rect: PixelRect) throws(ChimeError) -> Pixbuf {
    // The sub-pixbuf shares our pixels; the copy owns its own.
    guard let sub = gdk_pixbuf_new_subpixbuf(pointer, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height)) else {
      throw Self.failure("cannot crop \(rect) out of \(width)×\(height)", nil)
    }
    defer { g_object_unref(UnsafeMutableRawPointer(sub)) }
    guard let copy = gdk_pixbuf_copy(sub) else { throw Self.failure("cannot copy a \(rect.width)×\(rect.height) crop", nil) }
    return Pixbuf(taking: copy)
  }

  /// Scaled to exactly `width`×`height` with bilinear filtering (a copy).
  func scaled(width: Int, height: Int) throws(ChimeError) -> Pixbuf {
    guard let p = gdk_pixbuf_scale_simple(pointer, Int32(width), Int32(height), GDK_INTERP_BILINEAR) else {
      throw Self.failure("cannot scale \(self.width)×\(self.height) to \(width)×\(height)", nil)
    }
    return Pixbuf(taking: p)
  }

  /// Turned clockwise by 90, 180 or 270 degrees (a copy); itself for anything else.
  func rotated(clockwise degrees: Int) throws(ChimeError) -> Pixbuf {
    let turn: GdkPixbufRotation
    switch degrees {
    case 90: turn = GDK_PIXBUF_ROTATE_CLOCKWISE
    case 180: turn = GDK_PIXBUF_ROTATE_UPSIDEDOWN
    case 270: turn = GDK_PIXBUF_ROTATE_COUNTERCLOCKWISE
    default: return self
    }
    guard let p = gdk_pixbuf_rotate_simple(pointer, turn) else {
      throw Self.failure("cannot turn the image by \(degrees)°", nil)
    }
    return Pixbuf(taking: p)
  }

  /// The image encoded as PNG.
  func png() throws(ChimeError) -> [UInt8] {
    var buffer: UnsafeMutablePointer<gchar>?
    var size: gsize = 0
    var error: UnsafeMutablePointer<GError>?
    guard gdk_pixbuf_save_to_bufferv(pointer, &buffer, &size, "png", nil, nil, &error) != 0, let buffer else {
      throw Self.failure("cannot encode PNG", error)
    }
    defer { g_free(buffer) }
    return UnsafeRawBufferPointer(start: buffer, count: Int(size)).map { $0 }
  }

  /// The pixels as packed RGBA rows.
  func frame() -> RGBAFrame {
    let stride = Int(gdk_pixbuf_get_rowstride(pointer))
    let channels = Int(gdk_pixbuf_get_n_channels(pointer))
    let source = gdk_pixbuf_read_pixels(pointer)!
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        for c in 0..<channels where c < 4 {
          pixels[(y * width + x) * 4 + c] = source[y * stride + x * channels + c]
        }
      }
    }
    return RGBAFrame(width: width, height: height, pixels: pixels)
  }

  /// THUMBNAIL_RENDER_FAILED with gdk-pixbuf's own message, freeing its error.
  private static func failure(_ what: String, _ error: UnsafeMutablePointer<GError>?) -> ChimeError {
    var message = what
    if let error {
      if let text = error.pointee.message { message += ": " + String(cString: text) }
      g_error_free(error)
    }
    return ChimeError(.thumbnailRenderFailed, message)
  }
}
