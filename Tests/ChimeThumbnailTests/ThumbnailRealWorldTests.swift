import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeThumbnail
import Testing

/// Thumbnails of real-world kinds (Tests/Fixtures/media/realworld): the box fits what the viewer
/// sees (non-square pixels stretched), and a movie without timestamps renders at any time the
/// check accepted.
@Suite("Thumbnail renderer: real-world kinds")
struct ThumbnailRealWorldTests {
  static func render(_ name: String, clip: ClipRect? = nil, time: Double? = nil) throws -> RGBAFrame {
    var options = AttachmentOptions()
    options.thumbnailClippingRect = clip
    options.thumbnailTime = time
    let facts = try ThumbnailRendererTests.facts(name)
    try AttachmentOptionsValidator.validate(options, facts: facts, field: "options")
    return try ThumbnailRenderer.decodePNG(ThumbnailRenderer.render(path: MediaCorpus.path(name), facts: facts, options: options))
  }

  @Test(arguments: [
    ("realworld/devede-base_ntsc_wide.mpg", 300, 169),  // 720×480 shown 16:9
    ("realworld/devede-base_pal.mpg", 225, 169),  // 720×576 shown 4:3
    ("realworld/ffmpeg-pasp.mp4", 225, 169),  // 90×72 pixels of 16:15: 96×72
    ("realworld/ffmpeg-mpeg2-wide.m2v", 300, 168),  // 32×32 shown 16:9: 57×32
    ("realworld/k3bphotovcd-16-sectors.mpg", 225, 169),  // 352×288 Video CD pels: 384×288
  ])
  func theBoxFitsTheDisplayAspect(_ name: String, _ width: Int, _ height: Int) throws {
    let image = try Self.render(name)
    #expect(image.width == width && image.height == height, "\(image.width)×\(image.height)")
  }

  /// The clipping rectangle is a share of what the viewer sees: the left half of a 16:9 picture
  /// is 8:9 whatever its pixels.
  @Test func theClipAppliesToWhatTheViewerSees() throws {
    let half = try Self.render("realworld/devede-base_ntsc_wide.mpg", clip: ClipRect(x: 0, y: 0, width: 0.5, height: 1))
    #expect(half.width == 150 && half.height == 169, "\(half.width)×\(half.height)")
  }

  /// python-pygame-doc's `blue.mpg` has no timestamps: it is checked as 24 frames at 30 per
  /// second, and every time up to its 0.8 s renders.
  @Test(arguments: [0.0, 0.1, 0.4, 0.79, 0.8])
  func aProgramStreamWithoutTimestampsRendersAtEveryAcceptedTime(_ time: Double) throws {
    let facts = try ThumbnailRendererTests.facts("realworld/pygame-blue.mpg")
    #expect(facts.durationSeconds == 0.8 && facts.frameCount == 24)
    let image = try Self.render("realworld/pygame-blue.mpg", time: time)
    #expect(image.width == 225 && image.height == 169)
  }

  @Test(arguments: ["realworld/wx-press.mpg", "realworld/ffmpeg-mpeg1.m1v", "realworld/ffmpeg-fragmented-3s.mp4"])
  func newlyAcceptedMoviesRender(_ name: String) throws {
    let facts = try ThumbnailRendererTests.facts(name)
    let image = try Self.render(name, time: facts.durationSeconds / 2)
    #expect(image.width > 0 && image.height > 0)
  }
}
