import ChimeCore
import Testing

@Suite("Attachment options")
struct MediaAttachmentOptionsTests {
  static let field = "request.content.attachments[0].options"
  static let still = MediaFacts(type: .png, bytes: 100, width: 10, height: 10, frameCount: 1)
  static let animated = MediaFacts(type: .gif, bytes: 100, width: 10, height: 10, durationSeconds: 0.6, frameCount: 3)
  static let staticGIF = MediaFacts(type: .gif, bytes: 100, width: 10, height: 10, frameCount: 1)
  static let movie = MediaFacts(type: .mpeg4, bytes: 100, width: 10, height: 10, durationSeconds: 2.5, frameCount: 25)
  static let audio = MediaFacts(type: .mp3, bytes: 100, durationSeconds: 3)

  private static func options(clip: ClipRect? = nil, time: Double? = nil) -> AttachmentOptions {
    var o = AttachmentOptions()
    o.thumbnailClippingRect = clip
    o.thumbnailTime = time
    return o
  }

  private static func failure(_ o: AttachmentOptions, _ facts: MediaFacts) -> ChimeError? {
    do throws(ChimeError) {
      try AttachmentOptionsValidator.validate(o, facts: facts, field: field)
      return nil
    } catch {
      return error
    }
  }

  @Test func noOptionsAreFine() {
    for facts in [Self.still, Self.animated, Self.movie, Self.audio] {
      #expect(Self.failure(AttachmentOptions(), facts) == nil)
    }
  }

  @Test(arguments: [
    ClipRect(x: 0, y: 0, width: 1, height: 1),
    ClipRect(x: 0.25, y: 0.5, width: 0.75, height: 0.5),
    ClipRect(x: 0.999, y: 0, width: 0.001, height: 1),
  ])
  func validClipRects(_ rect: ClipRect) {
    #expect(Self.failure(Self.options(clip: rect), Self.still) == nil)
  }

  @Test(arguments: [
    ClipRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
    ClipRect(x: 0, y: -0.0001, width: 0.5, height: 0.5),
    ClipRect(x: 0, y: 0, width: 0, height: 0.5),
    ClipRect(x: 0, y: 0, width: 0.5, height: -1),
    ClipRect(x: 0.5, y: 0, width: 0.6, height: 0.5),
    ClipRect(x: 0, y: 0.75, width: 0.5, height: 0.5),
    ClipRect(x: .nan, y: 0, width: 0.5, height: 0.5),
    ClipRect(x: 0, y: 0, width: .infinity, height: 0.5),
    ClipRect(x: 0, y: 0, width: 2, height: 2),
  ])
  func invalidClipRects(_ rect: ClipRect) throws {
    let error = try #require(Self.failure(Self.options(clip: rect), Self.movie))
    #expect(error.code == .invalidArgument)
    #expect(error.reason == "INVALID_THUMBNAIL_CLIPPING_RECT")
    #expect(error.field == "request.content.attachments[0].options.thumbnail_clipping_rect")
  }

  @Test func thumbnailTimeForAnimatedGIFIsAFrameIndex() {
    for t in [0.0, 1, 2] {
      #expect(Self.failure(Self.options(time: t), Self.animated) == nil, "frame \(t)")
    }
    for t in [3.0, 0.5, -1, .nan, .infinity] {
      let error = Self.failure(Self.options(time: t), Self.animated)
      #expect(error?.reason == "INVALID_THUMBNAIL_TIME", "frame \(t)")
      #expect(error?.field == "request.content.attachments[0].options.thumbnail_time")
    }
  }

  @Test func thumbnailTimeForMovieIsWithinTheDuration() {
    for t in [0.0, 1.25, 2.5] {
      #expect(Self.failure(Self.options(time: t), Self.movie) == nil, "time \(t)")
    }
    for t in [-0.001, 2.5001, .nan] {
      #expect(Self.failure(Self.options(time: t), Self.movie)?.reason == "INVALID_THUMBNAIL_TIME", "time \(t)")
    }
  }

  @Test func aMovieOfUnknownDurationTakesAnyTimeFromZero() throws {
    var unknown = Self.movie
    unknown.durationSeconds = 0
    for t in [0.0, 0.5, 3600] {
      #expect(Self.failure(Self.options(time: t), unknown) == nil, "time \(t)")
    }
    for t in [-1.0, .nan, .infinity] {
      #expect(Self.failure(Self.options(time: t), unknown)?.reason == "INVALID_THUMBNAIL_TIME", "time \(t)")
    }
    // The fragmented MPEG-4 fixture's movie header gives no duration; its fragments do (1 s).
    let fragmented = try MediaFixtures.inspect(MediaFixtures.bytes("movies/mp4-fragmented.mp4")).get()
    #expect(Self.failure(Self.options(time: 0.5), fragmented) == nil)
    #expect(Self.failure(Self.options(time: 1.5), fragmented)?.reason == "INVALID_THUMBNAIL_TIME")
  }

  @Test func thumbnailTimeIsRefusedForStillImagesAndAudio() throws {
    for facts in [Self.still, Self.staticGIF, Self.audio] {
      let error = try #require(Self.failure(Self.options(time: 0), facts))
      #expect(error.reason == "INVALID_THUMBNAIL_TIME")
      #expect(error.field == "request.content.attachments[0].options.thumbnail_time")
    }
    #expect(Self.failure(Self.options(time: 0), Self.still)?.message == "thumbnail time is only for animated GIFs, animated PNGs and movies; public.png is a still image")
  }

  @Test func realFixturesDriveTheRules() throws {
    let gif = try MediaFixtures.inspect(MediaFixtures.bytes("images/gif-animated.gif")).get()
    #expect(Self.failure(Self.options(time: 2), gif) == nil)
    #expect(Self.failure(Self.options(time: 3), gif) != nil)
    let mp4 = try MediaFixtures.inspect(MediaFixtures.bytes("movies/mp4-video.mp4")).get()
    #expect(Self.failure(Self.options(time: 0.9), mp4) == nil)
    #expect(Self.failure(Self.options(time: 1.5), mp4) != nil)
  }
}
