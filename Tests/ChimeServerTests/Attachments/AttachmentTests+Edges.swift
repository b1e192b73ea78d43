@testable import ChimeServer
import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Logging
import Testing

/// The store's edges: files that lie about their size, files with other names or on another file
/// system, a data directory spelled another way, and what listings give back.
extension AttachmentTests {
  @Test func theQuotaLookAheadCannotOverflow() {
    #expect(PreparedRequest.plannedBytes([]) == 0)
    #expect(PreparedRequest.plannedBytes([10, 20]) == 30)
    #expect(PreparedRequest.plannedBytes([50_000_000, 50_000_000]) == 100_000_000)
    #expect(PreparedRequest.plannedBytes([1 << 62, 1 << 62]) == nil, "over every class limit: staging refuses it by size")
    #expect(PreparedRequest.plannedBytes([Int64.max, 1]) == nil)
    #expect(PreparedRequest.plannedBytes([-5, 7]) == 7)
  }

  @Test func aFileOverEveryLimitIsRefusedBySizeEvenOverQuota() async throws {
    let d = try InProcessDaemon(tweak: { $0.limits.attachmentQuotaBytes = 1000 })
    let client = try d.client()
    // 60 MB, sparse: larger than any class limit and than the quota.
    let big = d.directory.file("in/big.mp4")
    MediaCorpus.write(Data(), to: big)
    #expect(truncate(big, 60_000_000) == 0)
    await expectError("ATTACHMENT_INVALID_FILE_SIZE", field: "request.content.attachments[0]") {
      _ = try await client.add(request("a", attaching: [big]))
    }
    #expect(MediaCorpus.exists(big))
  }

  @Test(.enabled(if: access("/dev/shm", W_OK) == 0, "needs a writable tmpfs at /dev/shm"))
  func sparseFilesClaimingExabytesAreRefusedAndTheDaemonServesOn() async throws {
    // tmpfs takes a 2^62-byte sparse file (the disk's file system may not).
    let shm = "/dev/shm/chime-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try #require(mkdir(shm, 0o700) == 0)
    defer { try? FileManager.default.removeItem(atPath: shm) }
    var paths: [String] = []
    for name in ["a.mp4", "b.mp4"] {
      let path = shm + "/" + name
      MediaCorpus.write(Data(), to: path)
      try #require(truncate(path, 1 << 62) == 0, "tmpfs takes sparse files this large")
      paths.append(path)
    }
    let d = try InProcessDaemon()
    let client = try d.client()
    await expectError("ATTACHMENT_INVALID_FILE_SIZE") { _ = try await client.add(request("a", attaching: paths)) }
    _ = try await client.add(request("ok", attaching: []))
    #expect(try await client.allPending().map(\.request.identifier) == ["ok"])
  }

  @Test func anImmediateReplacementCountsOnlyWhatItKeeps() async throws {
    let png = MediaCorpus.data("images/png-rgb.png")
    let d = try InProcessDaemon(tweak: { $0.limits.attachmentQuotaBytes = Int64(png.count * 2) })
    let client = try d.client()
    let first = [MediaCorpus.write(png, to: d.directory.file("in/1.png")), MediaCorpus.write(png, to: d.directory.file("in/2.png"))]
    _ = try await client.add(request("now", attaching: first, in: nil))
    // Delivered again at once: the earlier delivered notification's files go, so these fit.
    let second = [MediaCorpus.write(png, to: d.directory.file("in/3.png")), MediaCorpus.write(png, to: d.directory.file("in/4.png"))]
    let result = try await client.add(request("now", attaching: second, in: nil))
    #expect(result.delivered?.request.content.attachments.count == 2)
    try await waitUntil { store(d).count == 2 }
  }

  @Test func aFileWithOtherHardLinksIsCopiedAndItsOtherNamesKeepIt() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let source = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/photo.png"))
    let other = d.directory.file("in/also.png")
    #expect(link(source, other) == 0)
    let result = try await client.add(request("a", attaching: [source]))
    let stored = try #require(result.pending.request.content.attachments.first?.info?.storePath)
    #expect(!MediaCorpus.exists(source), "the named file is moved")
    #expect(MediaCorpus.exists(other))
    var a = stat(), b = stat()
    #expect(stat(stored, &a) == 0 && stat(other, &b) == 0)
    #expect(a.st_ino != b.st_ino, "the store holds a copy of its own")
    #expect(a.st_nlink == 1)
  }

  @Test(.enabled(if: access("/dev/shm", W_OK) == 0, "needs a writable tmpfs at /dev/shm"))
  func aSourceOnAnotherFileSystemIsCopiedThenRemoved() async throws {
    let shm = "/dev/shm/chime-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try #require(mkdir(shm, 0o700) == 0)
    defer { try? FileManager.default.removeItem(atPath: shm) }
    let d = try InProcessDaemon()
    var here = stat(), there = stat()
    try #require(stat(d.directory.path, &here) == 0 && stat(shm, &there) == 0 && here.st_dev != there.st_dev, "/dev/shm is another file system")
    let client = try d.client()
    let source = MediaCorpus.copy("audio/wav-pcm16.wav", to: shm + "/ding.wav")
    let result = try await client.add(request("a", attaching: [source]))
    let stored = try #require(result.pending.request.content.attachments.first?.info?.storePath)
    #expect(!MediaCorpus.exists(source))
    #expect(FileManager.default.contents(atPath: stored) == MediaCorpus.data("audio/wav-pcm16.wav"))
  }

  @Test func aSymlinkedDirectoryIntoTheDataDirectoryIsRefused() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    try FileManager.default.createSymbolicLink(atPath: d.directory.file("via"), withDestinationPath: d.directory.file("data"))
    await expectError("ATTACHMENT_INVALID_URL", field: "request.content.attachments[0].path") {
      _ = try await client.add(request("a", attaching: [d.directory.file("via/chime.db")]))
    }
    #expect(MediaCorpus.exists(d.directory.file("data/chime.db")))
  }

  @Test(.enabled(if: geteuid() != 0, "root may write anywhere: only an ordinary user sees the refusal"))
  func aSourceThatCannotLeaveItsDirectoryIsRefusedUpFront() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let source = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("locked/photo.png"))
    #expect(chmod(d.directory.file("locked"), 0o500) == 0)
    defer { chmod(d.directory.file("locked"), 0o700) }
    await expectError("ATTACHMENT_NOT_MOVABLE", code: .failedPrecondition) {
      _ = try await client.add(request("a", attaching: [source]))
    }
    #expect(MediaCorpus.exists(source))
    #expect(store(d).isEmpty)
  }

  @Test func aDataDirectorySpelledAnotherWayKeepsItsFiles() async throws {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: directory.file("real"))
    var d: InProcessDaemon? = try InProcessDaemon(directory: directory, tweak: { $0.paths.dataDirectory = directory.file("link") + "/" })
    let added = try await d!.client().add(request("a", attaching: [MediaCorpus.copy("images/png-rgb.png", to: directory.file("in/a.png"))]))
    let path = try #require(added.pending.request.content.attachments.first?.info?.storePath)
    #expect(path.hasPrefix(directory.file("real/attachments/")), "stored under the canonical data directory: \(path)")
    d?.stop()
    d = nil
    // The same data directory, named through its real path this time.
    let again = try InProcessDaemon(directory: directory, tweak: { $0.paths.dataDirectory = directory.file("real") })
    #expect(again.daemon.stats().attachmentsSwept == 0)
    #expect(again.daemon.stats().attachmentsMissing.isEmpty)
    #expect(MediaCorpus.exists(path))
  }

  @Test func listingsGiveBackEachAttachmentsOptionsAndGeneratedIdentifiers() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var r = request("a", attaching: [
      MediaCorpus.copy("images/gif-animated.gif", to: d.directory.file("in/wave.gif")),
      MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/1.png")),
      MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("in/2.png")),
    ], in: 10)
    r.content.attachments[0].identifier = "wave"
    r.content.attachments[0].options.typeHint = "com.compuserve.gif"
    r.content.attachments[0].options.thumbnailTime = 1
    r.content.attachments[0].options.thumbnailClippingRect = ClipRect(x: 0.25, y: 0, width: 0.5, height: 1)
    r.content.attachments[1].options.thumbnailHidden = true
    _ = try await client.add(r)

    let pending = try #require(try await client.allPending().first?.request.content.attachments)
    #expect(pending.map(\.options) == r.content.attachments.map(\.options))
    #expect(pending[0].identifier == "wave")
    #expect(!pending[1].identifier.isEmpty && !pending[2].identifier.isEmpty)
    #expect(Set(pending.map(\.identifier)).count == 3, "generated identifiers are distinct")

    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    d.advance(seconds: 11)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    let delivered = try #require(try await client.allDelivered().first?.request.content.attachments)
    #expect(delivered.map(\.options) == pending.map(\.options))
    #expect(delivered.map(\.identifier) == pending.map(\.identifier))
    #expect(delivered.map(\.info) == pending.map(\.info))
  }
}

/// The sweep and discards match store files by `<app>/<name>`, whatever spelling of the data
/// directory the rows were written under.
@Suite(.testTimeLimit) struct AttachmentStoreSpellingTests {
  let dir = TemporaryDirectory()

  func store() throws -> AttachmentStore {
    try FileManager.default.createDirectory(atPath: dir.file("data/attachments/app"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: dir.file("alias"), withDestinationPath: dir.file("data"))
    return AttachmentStore(dataDirectory: dir.file("data"), logger: Logger(label: "test"))
  }

  @Test func theSweepKeepsHeldFilesNamedThroughAnotherSpelling() throws {
    let store = try store()
    let held = MediaCorpus.write(Data([1]), to: dir.file("data/attachments/app/held.png"))
    let moved = MediaCorpus.write(Data([3]), to: dir.file("data/attachments/app/moved.png"))
    let stray = MediaCorpus.write(Data([2]), to: dir.file("data/attachments/app/stray.png"))
    // Rows written before the data directory moved name a place that no longer exists; the
    // file is still in the store and is neither swept nor reported missing.
    let report = store.sweep(known: [dir.file("alias//attachments/app/held.png"), "/moved/data/attachments/app/moved.png",
                                     "/old/data/attachments/app/gone.png"])
    #expect(MediaCorpus.exists(held) && MediaCorpus.exists(moved))
    #expect(!MediaCorpus.exists(stray))
    #expect(report.removed == [stray])
    #expect(report.missing == ["/old/data/attachments/app/gone.png"])
  }

  @Test func discardFreesFilesRecordedUnderAnotherSpellingAndNothingOutside() throws {
    let store = try store()
    let file = MediaCorpus.write(Data([1]), to: dir.file("data/attachments/app/one.png"))
    let outside = MediaCorpus.write(Data([1]), to: dir.file("keep.png"))
    store.discard(["/moved/data/attachments/app/one.png", dir.file("data/attachments/app/.."), dir.file("keep.png"), "/keep.png", ""])
    #expect(!MediaCorpus.exists(file), "freed by its place in the store")
    #expect(MediaCorpus.exists(outside))
    #expect(store.storePath("/a/b/../c") == nil && store.storePath("x/..") == nil && store.storePath("/only") == nil)
  }
}
