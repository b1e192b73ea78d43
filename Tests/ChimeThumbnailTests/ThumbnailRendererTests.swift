import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeThumbnail
import Foundation
import Testing

/// Pixel checks on rendered thumbnails of the fixtures `scripts/make-thumbnail-fixtures.sh`
/// made: flat colours, so each check names the colour it expects.
@Suite("Thumbnail renderer")
struct ThumbnailRendererTests {
  static let red: [UInt8] = [255, 0, 0]
  static let lime: [UInt8] = [0, 255, 0]
  static let blue: [UInt8] = [0, 0, 255]
  static let yellow: [UInt8] = [255, 255, 0]

  static func facts(_ name: String) throws -> MediaFacts {
    try RegularFile.withByteSource(MediaCorpus.path(name)) { source in
      Result { () throws(ChimeError) in try MediaInspector.inspect(source) }
    }.get()
  }

  static func render(_ name: String, clip: ClipRect? = nil, time: Double? = nil, box: ThumbnailBox = .default) throws -> RGBAFrame {
    var options = AttachmentOptions()
    options.thumbnailClippingRect = clip
    options.thumbnailTime = time
    let facts = try facts(name)
    try AttachmentOptionsValidator.validate(options, facts: facts, field: "options")
    let png = try ThumbnailRenderer.render(path: MediaCorpus.path(name), facts: facts, options: options, box: box)
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG bytes")
    return try ThumbnailRenderer.decodePNG(png)
  }

  /// Every pixel of `image` is `colour` within `tolerance` per channel, and opaque.
  static func expectAll(_ image: RGBAFrame, _ colour: [UInt8], tolerance: Int = 6, _ what: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    var worst = 0
    var at = (0, 0)
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.pixel(x: x, y: y)
        let d = max(zip(p.prefix(3), colour).map { abs(Int($0) - Int($1)) }.max() ?? 0, 255 - Int(p[3]))
        if d > worst { worst = d; at = (x, y) }
      }
    }
    #expect(worst <= tolerance, "\(what): pixel \(at) is \(image.pixel(x: at.0, y: at.1)), expected \(colour)", sourceLocation: sourceLocation)
  }

  @Test func theWholeImageFitsTheDefaultBoxKeepingItsAspect() throws {
    let image = try Self.render("thumbnails/quadrants.png")
    #expect(image.width == 225 && image.height == 169, "64×48 is 4:3: 225×169 in 300×169")
    // Quadrant centres keep their colours after scaling.
    #expect(Array(image.pixel(x: 56, y: 42).prefix(3)) == Self.red)
    #expect(Array(image.pixel(x: 168, y: 42).prefix(3)) == Self.lime)
    #expect(Array(image.pixel(x: 56, y: 126).prefix(3)) == Self.blue)
    #expect(Array(image.pixel(x: 168, y: 126).prefix(3)) == Self.yellow)
  }

  @Test(arguments: [
    (ClipRect(x: 0, y: 0, width: 0.5, height: 0.5), red),
    (ClipRect(x: 0.5, y: 0, width: 0.5, height: 0.5), lime),
    (ClipRect(x: 0, y: 0.5, width: 0.5, height: 0.5), blue),
    (ClipRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5), yellow),
  ])
  func aClipRectKeepsOnlyItsQuadrant(_ clip: ClipRect, _ colour: [UInt8]) throws {
    let image = try Self.render("thumbnails/quadrants.png", clip: clip)
    #expect(image.width == 225 && image.height == 169, "a 32×24 quarter is 4:3 too")
    Self.expectAll(image, colour, tolerance: 0, "clip \(clip)")
  }

  @Test func aClipRectAcrossTheMiddleKeepsFourColoursInPlace() throws {
    // The left half's top and bottom: 32×48 (2:3) fits 300×169 as 113×169.
    let image = try Self.render("thumbnails/quadrants.png", clip: ClipRect(x: 0, y: 0, width: 0.5, height: 1))
    #expect(image.width == 113 && image.height == 169)
    #expect(Array(image.pixel(x: 56, y: 20).prefix(3)) == Self.red)
    #expect(Array(image.pixel(x: 56, y: 150).prefix(3)) == Self.blue)
  }

  @Test func aSmallerBoxIsRespected() throws {
    let image = try Self.render("thumbnails/quadrants.png", clip: ClipRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
                                box: ThumbnailBox(width: 16, height: 16))
    #expect(image.width == 16 && image.height == 12)
    Self.expectAll(image, Self.yellow, tolerance: 0, "16×16 box")
  }

  @Test(arguments: [(nil, red), (0.0, red), (1.0, lime), (2.0, blue), (3.0, yellow)] as [(Double?, [UInt8])])
  func aGIFFrameIsThatFramesColour(_ time: Double?, _ colour: [UInt8]) throws {
    let image = try Self.render("thumbnails/frames.gif", time: time)
    #expect(image.width == 225 && image.height == 169)
    Self.expectAll(image, colour, tolerance: 0, "GIF frame \(time.map { "\($0)" } ?? "default")")
  }

  @Test(arguments: [(nil, red), (0.0, red), (1.0, lime), (2.0, blue)] as [(Double?, [UInt8])])
  func anAPNGFrameIsThatFramesColour(_ time: Double?, _ colour: [UInt8]) throws {
    let image = try Self.render("thumbnails/frames.apng.png", time: time)
    Self.expectAll(image, colour, tolerance: 0, "APNG frame \(time.map { "\($0)" } ?? "default")")
  }

  /// The default image is not part of this animation: frame 0 is the first fcTL frame (red),
  /// as the inspector counts, never the white default image.
  @Test(arguments: [(0.0, red), (1.0, lime)])
  func anAPNGWhoseDefaultImageIsNotAFrame(_ time: Double, _ colour: [UInt8]) throws {
    #expect(try Self.facts("thumbnails/apng-default-not-a-frame.png").frameCount == 2)
    let image = try Self.render("thumbnails/apng-default-not-a-frame.png", time: time)
    Self.expectAll(image, colour, tolerance: 0, "frame \(time)")
  }

  @Test func aGIFClipAndFrameCombine() throws {
    let image = try Self.render("thumbnails/frames.gif", clip: ClipRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5), time: 2)
    Self.expectAll(image, Self.blue, tolerance: 0, "GIF frame 2 clipped")
  }

  /// The movie is red in second 0, lime in 1 and blue in 2 (5 fps, 3 s).
  @Test(arguments: [(nil, red), (0.0, red), (0.5, red), (1.0, lime), (1.5, lime), (2.5, blue), (3.0, blue)] as [(Double?, [UInt8])])
  func aMovieFrameHasTheColourOfItsSecond(_ time: Double?, _ colour: [UInt8]) throws {
    let image = try Self.render("thumbnails/seconds.mp4", time: time)
    #expect(image.width == 225 && image.height == 169)
    // MPEG-4 video is YUV 4:2:0: flat colours come back within a few levels.
    Self.expectAll(image, colour, tolerance: 8, "movie at \(time.map { "\($0) s" } ?? "default")")
  }

  @Test func aMovieFrameIsClippedToo() throws {
    let image = try Self.render("thumbnails/seconds.mp4", clip: ClipRect(x: 0.5, y: 0, width: 0.5, height: 1), time: 2.2)
    #expect(image.width == 113 && image.height == 169)
    Self.expectAll(image, Self.blue, tolerance: 8, "movie clipped at 2.2 s")
  }

  /// rotated.mp4 stores the quadrants as they are and asks, in its display matrix, to be shown
  /// a quarter turn counterclockwise: 48×64, lime top left, yellow top right, red bottom left,
  /// blue bottom right. The thumbnail is what the viewer sees, and the clip applies to that.
  @Test func aMovieIsTurnedAsItsContainerSaysBeforeTheClip() throws {
    let whole = try Self.render("thumbnails/rotated.mp4")
    #expect(whole.width == 127 && whole.height == 169, "48×64 shown upright")
    let corners = [(20, 30, Self.lime), (106, 30, Self.yellow), (20, 138, Self.red), (106, 138, Self.blue)]
    for (x, y, colour) in corners {
      let p = whole.pixel(x: x, y: y)
      #expect(zip(p.prefix(3), colour).allSatisfy { abs(Int($0) - Int($1)) <= 8 }, "\(x),\(y) is \(p), expected \(colour)")
    }
    // Inside the bottom-right quarter, clear of the edges where lossy video blurs colours.
    let clipped = try Self.render("thumbnails/rotated.mp4", clip: ClipRect(x: 0.625, y: 0.625, width: 0.375, height: 0.375))
    #expect(clipped.width == 127 && clipped.height == 169, "18×24 of the 48×64 picture")
    Self.expectAll(clipped, Self.blue, tolerance: 8, "bottom-right of the turned movie")
  }

  @Test func stillFixturesOfEveryImageTypeRender() throws {
    for name in ["images/png-rgb.png", "images/png-palette.png", "images/png-gray16.png", "images/png-interlaced.png",
                 "images/jpeg-baseline.jpg", "images/jpeg-progressive.jpg", "images/gif-static.gif",
                 "movies/mp4-video.mp4", "movies/avi-mjpeg.avi", "movies/mpeg1-system.mpg", "movies/mpeg2-program.mpg"] {
      let facts = try Self.facts(name)
      let image = try Self.render(name)
      let fit = ThumbnailGeometry.fit(width: Int(facts.width), height: Int(facts.height), in: .default)
      #expect(image.width == fit.width && image.height == fit.height, "\(name)")
    }
    // png-gray16 is flat grey 50%.
    Self.expectAll(try Self.render("images/png-gray16.png"), [128, 128, 128], tolerance: 2, "grey")
  }

  @Test func audioHasNoThumbnail() throws {
    let facts = try Self.facts("audio/mp3-plain.mp3")
    #expect {
      try ThumbnailRenderer.render(path: MediaCorpus.path("audio/mp3-plain.mp3"), facts: facts, options: AttachmentOptions())
    } throws: { ($0 as? ChimeError)?.reason == "THUMBNAIL_NOT_AVAILABLE" }
  }

  @Test func undecodablePixelsAreARenderFailureNotACrash() throws {
    let dir = TemporaryDirectory()
    // The loader is the one of the inspected type, never a guess from the bytes: JPEG bytes
    // given as a PNG do not decode. And a movie cut short.
    let brokenPNG = MediaCorpus.copy("images/jpeg-baseline.jpg", to: dir.file("broken.png"))
    let png = [UInt8](MediaCorpus.data("images/jpeg-baseline.jpg"))
    let pngFacts = MediaFacts(type: .png, bytes: UInt64(png.count), width: 64, height: 48, frameCount: 1)
    #expect {
      try ThumbnailRenderer.render(path: brokenPNG, facts: pngFacts, options: AttachmentOptions())
    } throws: { ($0 as? ChimeError)?.reason == "THUMBNAIL_RENDER_FAILED" }

    let movie = MediaCorpus.data("thumbnails/seconds.mp4")
    let cut = MediaCorpus.write(movie.prefix(movie.count / 3), to: dir.file("cut.mp4"))
    let movieFacts = try Self.facts("thumbnails/seconds.mp4")
    var options = AttachmentOptions()
    options.thumbnailTime = 2.5
    // Whatever the decoder makes of it, the answer is pixels or THUMBNAIL_RENDER_FAILED.
    do throws(ChimeError) {
      _ = try ThumbnailRenderer.render(path: cut, facts: movieFacts, options: options)
    } catch {
      #expect(error.reason == "THUMBNAIL_RENDER_FAILED", "\(error)")
    }
    // An image declaring more pixels than can be rendered is refused before decoding.
    let huge = MediaFacts(type: .png, bytes: 100, width: 100_000, height: 100_000, frameCount: 1)
    #expect {
      try ThumbnailRenderer.render(path: brokenPNG, facts: huge, options: AttachmentOptions())
    } throws: { ($0 as? ChimeError)?.reason == "THUMBNAIL_RENDER_FAILED" }
  }
}

/// Damaged files that still pass the inspector (the inspector walks containers, not pixels) go
/// through the decoders: each gives a thumbnail or THUMBNAIL_RENDER_FAILED, never a crash.
@Suite("Thumbnail renderer: damaged pixels")
struct ThumbnailDamageTests {
  @Test(arguments: ["thumbnails/frames.gif", "thumbnails/seconds.mp4", "thumbnails/frames.apng.png", "thumbnails/quadrants.png"])
  func damagedFilesRenderOrFailWithAStatus(_ name: String) throws {
    let dir = TemporaryDirectory()
    let good = [UInt8](MediaCorpus.data(name))
    var random = SplitMix64(seed: UInt64(name.utf8.count) &* 7919)
    var rendered = 0, refused = 0, inspected = 0
    for i in 0..<60 {
      var bytes = good
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let at = 8 + Int(random.next() % UInt64(bytes.count - 8))
        bytes[at] = UInt8(truncatingIfNeeded: random.next())
      }
      if name.hasSuffix(".png") { bytes = Self.fixingCRCs(bytes) }
      guard let facts = try? MediaInspector.inspect(MemoryByteSource(bytes)) else { continue }
      inspected += 1
      var options = AttachmentOptions()
      if facts.isAnimated { options.thumbnailTime = Double(facts.frameCount - 1) }
      if facts.mediaClass == .movie { options.thumbnailTime = facts.durationSeconds / 2 }
      let path = MediaCorpus.write(Data(bytes), to: dir.file("\(i)-" + (name as NSString).lastPathComponent))
      do throws(ChimeError) {
        let png = try ThumbnailRenderer.render(path: path, facts: facts, options: options)
        let image = try ThumbnailRenderer.decodePNG(png)
        #expect(image.width >= 1 && image.width <= 300 && image.height >= 1 && image.height <= 169)
        rendered += 1
      } catch {
        #expect(error.reason == "THUMBNAIL_RENDER_FAILED", "\(name) #\(i): \(error)")
        refused += 1
      }
    }
    #expect(inspected > 0 && rendered + refused == inspected, "\(name): \(inspected) inspected, \(rendered) rendered, \(refused) refused")
  }

  /// Recomputes every chunk's CRC, so damage reaches the decoder instead of the inspector's check.
  static func fixingCRCs(_ png: [UInt8]) -> [UInt8] {
    var out = Array(png.prefix(8))
    var pos = 8
    while pos + 12 <= png.count {
      let length = Int(MediaBytes.readBE32(png, pos))
      guard pos + 12 + length <= png.count, let type = String(bytes: png[(pos + 4)..<(pos + 8)], encoding: .ascii) else { break }
      out += MediaBytes.pngChunk(type, Array(png[(pos + 8)..<(pos + 8 + length)]))
      pos += 12 + length
    }
    return out + png[pos...]
  }
}
