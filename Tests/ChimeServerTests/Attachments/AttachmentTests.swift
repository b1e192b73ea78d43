import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// UNNotificationAttachment's contract through the daemon: validated when added; a bad file
/// means nothing is scheduled and the source stays; a good one is moved into the store (copied
/// from the bundle) and leaves it when nothing holds it any more.
@Suite(.testTimeLimit) struct AttachmentTests {
  func expectError(_ reason: String, code: StatusCode = .invalidArgument, field: String? = nil,
                   _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let error = await caughtError(body) else {
      Issue.record("expected \(reason)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    if let field { #expect(error.field == field, "\(error)", sourceLocation: sourceLocation) }
  }

  func request(_ id: String, attaching paths: [String], in seconds: Double? = 60) -> NotificationRequest {
    var request = NotificationRequest.tea(id, in: seconds)
    request.content.attachments = paths.map { Attachment(path: $0) }
    return request
  }

  func store(_ d: InProcessDaemon) -> [String] { MediaCorpus.files(under: d.directory.file("data/attachments")) }

  @Test func anAcceptedFileIsMovedIntoTheStoreAndLeavesItWhenTheRequestIsRemoved() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let source = MediaCorpus.copy("images/png-interlaced.png", to: d.directory.file("in/photo.png"))
    let result = try await client.add(request("a", attaching: [source]))
    let attachment = try #require(result.pending.request.content.attachments.first)
    let info = try #require(attachment.info)
    #expect(!attachment.identifier.isEmpty, "an empty identifier gets a generated one")
    #expect(info.type == "public.png" && info.mediaClass == "image")
    #expect(info.width > 0 && info.height > 0)
    #expect(!MediaCorpus.exists(source), "moved, not copied")
    #expect(store(d) == [info.storePath])
    #expect(FileManager.default.contents(atPath: info.storePath) == MediaCorpus.data("images/png-interlaced.png"))

    let listed = try await client.allPending()
    #expect(listed.first?.request.content.attachments.first?.info == info, "GetPending returns the stored attachment")

    _ = try await client.removePending(["a"])
    try await waitUntil { store(d).isEmpty }
  }

  @Test func aBundleFileIsCopiedAndStays() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let bundle = d.directory.file("bundle")
    let source = MediaCorpus.copy("images/gif-animated.gif", to: bundle + "/art/wave.gif")
    _ = try await client.registerApp(bundle: bundle)
    var r = request("a", attaching: [source])
    r.content.attachments[0].options.thumbnailTime = 1
    let result = try await client.add(r)
    #expect(MediaCorpus.exists(source), "a bundle file is copied, never moved")
    let info = try #require(result.pending.request.content.attachments.first?.info)
    #expect(info.frameCount > 1)
    #expect(store(d) == [info.storePath])
    // A copy, not a hard link: the app rewriting its bundle must not change a checked file.
    var stored = stat(), original = stat()
    #expect(stat(info.storePath, &stored) == 0 && stat(source, &original) == 0)
    #expect(stored.st_ino != original.st_ino)
    #expect(stored.st_nlink == 1 && original.st_nlink == 1)
  }

  @Test func rejectedFilesStayWhereTheyAreAndNothingIsScheduled() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let png = MediaCorpus.data("images/png-rgb.png")
    let truncated = MediaCorpus.write(png.prefix(png.count - 20), to: d.directory.file("in/truncated.png"))
    let empty = MediaCorpus.write(Data(), to: d.directory.file("in/empty.png"))
    let imageAsMovie = MediaCorpus.copy("images/jpeg-baseline.jpg", to: d.directory.file("in/clip.mp4"))
    let text = MediaCorpus.write(Data("just text\n".utf8), to: d.directory.file("in/notes.png"))
    let link = d.directory.file("in/link.png")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: MediaCorpus.path("images/png-rgb.png"))

    let field = "request.content.attachments[0]"
    await expectError("ATTACHMENT_CORRUPT", field: field) { _ = try await client.add(request("a", attaching: [truncated])) }
    await expectError("ATTACHMENT_INVALID_FILE_SIZE", field: field) { _ = try await client.add(request("a", attaching: [empty])) }
    await expectError("ATTACHMENT_UNRECOGNIZED_TYPE", field: field) { _ = try await client.add(request("a", attaching: [text])) }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") { _ = try await client.add(request("a", attaching: [link])) }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") {
      _ = try await client.add(request("a", attaching: [d.directory.file("in/missing.png")]))
    }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") { _ = try await client.add(request("a", attaching: ["relative/x.png"])) }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") {
      _ = try await client.add(request("a", attaching: [d.directory.file("in/../in/truncated.png")]))
    }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") { _ = try await client.add(request("a", attaching: [d.directory.file("in")])) }
    await expectError("ATTACHMENT_INVALID_URL", field: field + ".path") {
      _ = try await client.add(request("a", attaching: [d.directory.file("data/chime.db")]))
    }
    // A type hint that contradicts the bytes names both.
    var hinted = request("a", attaching: [imageAsMovie])
    hinted.content.attachments[0].options.typeHint = "public.mpeg-4"
    let contradiction = await caughtError { _ = try await client.add(hinted) }
    #expect(contradiction?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
    #expect(contradiction?.message.contains("public.mpeg-4") == true && contradiction?.message.contains("public.jpeg") == true,
            "\(String(describing: contradiction))")
    // The second file is bad: the first is not kept either.
    let good = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/good.png"))
    await expectError("ATTACHMENT_CORRUPT", field: "request.content.attachments[1]") {
      _ = try await client.add(request("a", attaching: [good, truncated]))
    }
    // A still image has no thumbnail time.
    var timed = request("a", attaching: [good])
    timed.content.attachments[0].options.thumbnailTime = 1
    await expectError("INVALID_THUMBNAIL_TIME", field: field + ".options.thumbnail_time") { _ = try await client.add(timed) }

    for path in [truncated, empty, imageAsMovie, text, link, good] { #expect(MediaCorpus.exists(path), "\(path) was touched") }
    #expect(try await client.allPending().isEmpty)
    #expect(store(d).isEmpty)
    // And the daemon still serves.
    _ = try await client.add(request("ok", attaching: [good]))
  }

  @Test func aFileOneByteOverItsClassLimitIsRefused() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    // A WAV (audio: 5 MB) padded to 5,000,001 bytes.
    var wav = MediaCorpus.data("audio/wav-pcm16.wav")
    wav.append(Data(count: 5_000_001 - wav.count))
    let big = MediaCorpus.write(wav, to: d.directory.file("in/big.wav"))
    await expectError("ATTACHMENT_INVALID_FILE_SIZE") { _ = try await client.add(request("a", attaching: [big])) }
    #expect(MediaCorpus.exists(big))
  }

  @Test func theQuotaRefusesWhatDoesNotFitAndMovesNothing() async throws {
    let png = MediaCorpus.data("images/png-rgb.png")
    let d = try InProcessDaemon(tweak: { $0.limits.attachmentQuotaBytes = Int64(png.count * 2) })
    let client = try d.client()
    let first = MediaCorpus.write(png, to: d.directory.file("in/1.png"))
    let second = MediaCorpus.write(png, to: d.directory.file("in/2.png"))
    let third = MediaCorpus.write(png, to: d.directory.file("in/3.png"))
    _ = try await client.add(request("a", attaching: [first, second]))
    await expectError("ATTACHMENT_QUOTA_EXCEEDED", code: .resourceExhausted) { _ = try await client.add(request("b", attaching: [third])) }
    #expect(MediaCorpus.exists(third))
    #expect(store(d).count == 2)
    // Another app has its own quota.
    _ = try await d.client(app: "org.example.other").add(request("b", attaching: [MediaCorpus.write(png, to: d.directory.file("in/4.png"))]))
    // Replacing the request that holds the bytes frees them for the replacement.
    _ = try await client.add(request("a", attaching: [third]))
    #expect(!MediaCorpus.exists(third))
    try await waitUntil { store(d).count == 2 }
  }

  @Test func deliveredNotificationsHoldTheirFilesUntilRemoved() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let source = MediaCorpus.copy("audio/mp3-id3.mp3", to: d.directory.file("in/chime.mp3"))
    let added = try await client.add(request("a", attaching: [source], in: 10))
    let path = try #require(added.pending.request.content.attachments.first?.info?.storePath)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    d.advance(seconds: 11)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    let delivered = try await client.allDelivered()
    #expect(delivered.first?.request.content.attachments.first?.info?.storePath == path)
    #expect(MediaCorpus.exists(path), "the delivered notification still shows it")
    _ = try await client.removeDelivered(["a"])
    try await waitUntil { !MediaCorpus.exists(path) }
  }

  @Test func anImmediateDeliveryKeepsItsFile() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let source = MediaCorpus.copy("movies/mp4-video-audio.mp4", to: d.directory.file("in/clip.mp4"))
    var r = request("now", attaching: [source], in: nil)
    r.content.attachments[0].options.thumbnailTime = 0.1
    r.content.attachments[0].identifier = "clip"
    let result = try await client.add(r)
    let info = try #require(result.delivered?.request.content.attachments.first?.info)
    #expect(info.mediaClass == "movie" && info.durationSeconds > 0)
    #expect(store(d) == [info.storePath])
    _ = try await client.removeAllDelivered()
    try await waitUntil { store(d).isEmpty }
  }

  @Test func theStartUpSweepRemovesStrayFilesAndReportsMissingOnes() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let kept = try await client.add(request("a", attaching: [MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/a.png"))]))
    let lost = try await client.add(request("b", attaching: [MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/b.png"))]))
    let keptPath = try #require(kept.pending.request.content.attachments.first?.info?.storePath)
    let lostPath = try #require(lost.pending.request.content.attachments.first?.info?.storePath)
    d.stop()
    // A crash between staging and commit leaves a file no row names; a file can vanish.
    let stray = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("data/attachments/org.example.app/stray.png.staging"))
    #expect(unlink(lostPath) == 0)
    try d.restart()
    #expect(!MediaCorpus.exists(stray))
    #expect(MediaCorpus.exists(keptPath))
    let stats = d.daemon.stats()
    #expect(stats.attachmentsSwept == 1)
    #expect(stats.attachmentsMissing == [lostPath])
  }
}
