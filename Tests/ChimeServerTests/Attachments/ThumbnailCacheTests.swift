@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeThumbnail
import Foundation
import Logging
import Testing

/// The attachment store's thumbnail cache: the first non-hidden image or movie attachment of a
/// delivered notification is rendered once, kept beside its file, and freed with it.
@Suite(.testTimeLimit) struct ThumbnailCacheTests {
  func store(_ d: InProcessDaemon) -> AttachmentStore {
    AttachmentStore(dataDirectory: d.directory.file("data"), logger: Logger(label: "test"), thumbnailer: .built)
  }

  func files(_ d: InProcessDaemon) -> [String] { MediaCorpus.files(under: d.directory.file("data/attachments")) }

  @Test func theFirstShownAttachmentIsRenderedOnceAndFreedWithIt() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var r = NotificationRequest.tea("now", in: nil)
    r.content.attachments = [
      Attachment(path: MediaCorpus.copy("images/gif-static.gif", to: d.directory.file("in/hidden.gif"))),
      Attachment(path: MediaCorpus.copy("audio/mp3-plain.mp3", to: d.directory.file("in/sound.mp3"))),
      Attachment(path: MediaCorpus.copy("thumbnails/quadrants.png", to: d.directory.file("in/q.png"))),
      Attachment(path: MediaCorpus.copy("thumbnails/frames.gif", to: d.directory.file("in/later.gif"))),
    ]
    r.content.attachments[0].options.thumbnailHidden = true
    r.content.attachments[2].options.thumbnailClippingRect = ClipRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
    let delivered = try #require(try await client.add(r).delivered)
    let stored = try #require(delivered.request.content.attachments[2].info?.storePath)

    let path = try #require(store(d).thumbnailPath(for: delivered, app: "org.example.app"))
    #expect(path == stored + ".thumb-300x169.png", "beside its attachment, named for its box")
    let image = try ThumbnailRenderer.decodePNG([UInt8](try #require(FileManager.default.contents(atPath: path))))
    #expect(image.width == 225 && image.height == 169)
    for (x, y) in [(0, 0), (112, 84), (224, 168)] {
      #expect(image.pixel(x: x, y: y) == [255, 255, 0, 255], "the bottom-right quadrant is yellow at \(x),\(y)")
    }
    // Rendered once: a second call finds the file (a new render would rename a new inode in).
    let first = try #require(FileSystem.lstatus(path))
    #expect(store(d).thumbnailPath(for: delivered) == path)
    #expect(FileSystem.lstatus(path)?.inode == first.inode)
    #expect(files(d).count == 5, "four attachments and one thumbnail, no temporary left")

    _ = try await client.removeAllDelivered()
    try await waitUntil { files(d).isEmpty }
    #expect(!MediaCorpus.exists(path), "freed with its attachment")
  }

  @Test func nothingIsShownWhenEveryAttachmentIsHiddenOrAudio() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var r = NotificationRequest.tea("now", in: nil)
    r.content.attachments = [
      Attachment(path: MediaCorpus.copy("thumbnails/seconds.mp4", to: d.directory.file("in/m.mp4"))),
      Attachment(path: MediaCorpus.copy("audio/wav-pcm16.wav", to: d.directory.file("in/s.wav"))),
    ]
    r.content.attachments[0].options.thumbnailHidden = true
    let delivered = try #require(try await client.add(r).delivered)
    #expect(store(d).thumbnailPath(for: delivered) == nil)
    #expect(files(d).count == 2, "no thumbnail written")
  }

  @Test func aMovieThumbnailIsTheFrameAtItsTime() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var r = NotificationRequest.tea("now", in: nil)
    r.content.attachments = [Attachment(path: MediaCorpus.copy("thumbnails/seconds.mp4", to: d.directory.file("in/m.mp4")))]
    r.content.attachments[0].options.thumbnailTime = 1.5
    let delivered = try #require(try await client.add(r).delivered)
    let path = try #require(store(d).thumbnailPath(for: delivered))
    let image = try ThumbnailRenderer.decodePNG([UInt8](try #require(FileManager.default.contents(atPath: path))))
    let centre = image.pixel(x: image.width / 2, y: image.height / 2)
    #expect(centre[0] < 8 && centre[1] > 247 && centre[2] < 8, "second 1 is lime: \(centre)")
  }

  @Test func aFailedRenderIsNilAndLeavesNothingBehind() throws {
    let dir = TemporaryDirectory()
    let store = AttachmentStore(dataDirectory: dir.file("data"), logger: Logger(label: "test"), thumbnailer: .built)
    // The row says PNG, the bytes are JPEG: the PNG loader refuses them.
    let file = MediaCorpus.copy("images/jpeg-baseline.jpg", to: dir.file("data/attachments/app/x.png"))
    var attachment = Attachment(identifier: "x", path: "/gone/x.png")
    var info = AttachmentInfo()
    info.storePath = file
    info.type = "public.png"
    info.mediaClass = "image"
    info.width = 64
    info.height = 48
    info.frameCount = 1
    attachment.info = info
    #expect(store.thumbnailPath(for: attachment, app: "app") == nil)
    #expect(MediaCorpus.files(under: dir.file("data/attachments")) == [file])
  }

  @Test func theSweepKeepsAHeldFilesThumbnailForTodaysBoxOnlyAndDiscardFreesIt() throws {
    let dir = TemporaryDirectory()
    let store = AttachmentStore(dataDirectory: dir.file("data"), logger: Logger(label: "test"),
                                thumbnailBox: ThumbnailBox(width: 64, height: 36))
    let app = dir.file("data/attachments/app/")
    let held = MediaCorpus.write(Data([1]), to: app + "held.png")
    let heldThumb = MediaCorpus.write(Data([2]), to: app + "held.png.thumb-64x36.png")
    let otherBox = MediaCorpus.write(Data([2]), to: app + "held.png.thumb-300x169.png")
    let strayThumb = MediaCorpus.write(Data([3]), to: app + "gone.png.thumb-64x36.png")
    let staging = MediaCorpus.write(Data([4]), to: app + "held.png.thumb-64x36.png.staging-1234")
    let report = store.sweep(known: [held])
    #expect(Set(report.removed) == [otherBox, strayThumb, staging])
    #expect(MediaCorpus.exists(held) && MediaCorpus.exists(heldThumb))
    store.discard([held])
    #expect(!MediaCorpus.exists(held) && !MediaCorpus.exists(heldThumb))
  }

  @Test func theBoxIsTheStoresOwn() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var r = NotificationRequest.tea("now", in: nil)
    r.content.attachments = [Attachment(path: MediaCorpus.copy("thumbnails/quadrants.png", to: d.directory.file("in/q.png")))]
    let delivered = try #require(try await client.add(r).delivered)
    let small = AttachmentStore(dataDirectory: d.directory.file("data"), logger: Logger(label: "test"),
                                thumbnailBox: ThumbnailBox(width: 32, height: 32), thumbnailer: .built)
    let path = try #require(small.thumbnailPath(for: delivered))
    #expect(path.hasSuffix(".thumb-32x32.png"))
    let image = try ThumbnailRenderer.decodePNG([UInt8](try #require(FileManager.default.contents(atPath: path))))
    #expect(image.width == 32 && image.height == 24)
    #expect(image.pixel(x: 4, y: 4) == [255, 0, 0, 255] && image.pixel(x: 27, y: 19) == [255, 255, 0, 255])
  }
}
