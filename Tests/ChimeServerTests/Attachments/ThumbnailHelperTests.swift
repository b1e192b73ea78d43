@testable import ChimeServer
import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Logging
import Testing

/// Thumbnails are rendered by the `chime-thumbnail` helper, one process per thumbnail: a helper
/// that crashes, hangs, refuses or is missing leaves the attachment without a thumbnail and says
/// why (INTERNAL `THUMBNAIL_RENDER_FAILED`), and leaves nothing behind in the store.
@Suite(.testTimeLimit) struct ThumbnailHelperTests {
  let dir = TemporaryDirectory()

  /// A stored PNG attachment, as a delivered notification's row names it.
  func attachment() -> (ChimeCore.Attachment, String) {
    let file = MediaCorpus.copy("thumbnails/quadrants.png", to: dir.file("data/attachments/app/q.png"))
    var attachment = ChimeCore.Attachment(identifier: "q", path: "/gone/q.png")
    var info = AttachmentInfo()
    info.storePath = file
    info.type = "public.png"
    info.mediaClass = "image"
    info.width = 64
    info.height = 48
    info.frameCount = 1
    attachment.info = info
    return (attachment, file)
  }

  func store(_ helper: ThumbnailHelper?) -> AttachmentStore {
    AttachmentStore(dataDirectory: dir.file("data"), logger: Logger(label: "test"), thumbnailer: helper)
  }

  /// A stub helper running `body` (its arguments are the real helper's).
  func stub(_ body: String, timeoutMillis: Int = 10_000) -> ThumbnailHelper {
    let path = dir.file("stub-\(UUID().uuidString)")
    ExecutableScript.write(body, to: path)
    var helper = ThumbnailHelper(path: path)
    helper.timeoutMillis = timeoutMillis
    return helper
  }

  func failure(_ helper: ThumbnailHelper?) throws -> ChimeError? {
    let (attachment, file) = attachment()
    let result = store(helper).thumbnail(for: attachment)
    #expect(MediaCorpus.files(under: dir.file("data/attachments")) == [file], "no thumbnail, no temporary left")
    switch result {
    case .some(.failure(let error)): return error
    case .some(.success(let path)): Issue.record("rendered \(path)"); return nil
    case .none: return nil
    }
  }

  @Test func theBuiltHelperRendersWithItsLimitsSet() throws {
    let (attachment, file) = attachment()
    let result = try #require(store(.built).thumbnail(for: attachment))
    let path = try result.get()
    #expect(path == file + ".thumb-300x169.png")
    #expect(FileSystem.status(path)?.kind == .regular)
  }

  @Test func aCrashIsARenderFailureThatSaysSo() throws {
    // Leaves its half-written temporary, as a decoder crashing mid-write would.
    let helper = stub(#"""
      while [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; shift; done
      echo partial > "$out.staging-$$"
      kill -SEGV $$
      """#)
    let error = try #require(try failure(helper))
    #expect(error.has(.thumbnailRenderFailed) && error.code == .internal)
    #expect(error.message.contains("crashed: killed by signal 11"), "\(error.message)")
  }

  @Test func aHelperPastItsTimeoutIsKilledWithWhatItStarted() throws {
    let pidFile = dir.file("sleeper.pid")
    let helper = stub("sleep 600 & echo $! > \(pidFile); wait", timeoutMillis: 300)
    let started = Date()
    let error = try #require(try failure(helper))
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(error.has(.thumbnailRenderFailed) && error.message.contains("timed out"), "\(error.message)")
    let sleeper = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    // The whole process group was killed: its child is gone too (reaped by init, or a zombie).
    try #require(pollUntil(within: 10) {
      let state = (try? String(contentsOfFile: "/proc/\(sleeper)/stat", encoding: .utf8)) ?? ""
      return state.isEmpty || state.contains(") Z ")
    }, "sleep \(sleeper) still runs")
  }

  @Test func aRefusalCarriesTheHelpersReasonAndABoundedMessage() throws {
    // Floods stderr first: only the last bytes are kept, and the helper is not blocked on it.
    let helper = stub("""
      head -c 1000000 /dev/zero | tr '\\0' x >&2; echo >&2
      echo 'THUMBNAIL_RENDER_FAILED: the pixels do not decode' >&2
      exit 1
      """)
    let error = try #require(try failure(helper))
    #expect(error.has(.thumbnailRenderFailed) && error.code == .internal)
    #expect(error.message == "chime-thumbnail refused: THUMBNAIL_RENDER_FAILED: the pixels do not decode")

    let flood = try #require(try failure(stub("head -c 1000000 /dev/zero | tr '\\0' x >&2; exit 3")))
    #expect(flood.message.hasPrefix("chime-thumbnail crashed: exited with status 3: xxx"))
    #expect(flood.message.count < 4096, "bounded: \(flood.message.count)")
  }

  @Test func noHelperMeansNoThumbnailAndNoAttempt() throws {
    let (attachment, _) = attachment()
    #expect(store(nil).thumbnail(for: attachment) == nil)
    #expect(store(nil).thumbnailPath(for: attachment) == nil)
    #expect(ThumbnailHelper.locate(configured: dir.file("missing")) == nil)
    #expect(ThumbnailHelper.locate(configured: dir.path) == nil, "a directory is not a helper")
    #expect(ThumbnailHelper.locate() != nil, "the built one is found beside the test binary")
  }

  @Test func theDaemonServesWithAHelperThatIsMissing() async throws {
    let d = try InProcessDaemon(directory: dir) { $0.paths.thumbnailer = "/nonexistent/chime-thumbnail" }
    let client = try d.client()
    var r = NotificationRequest.tea("now", in: nil)
    r.content.attachments = [ChimeCore.Attachment(path: MediaCorpus.copy("thumbnails/quadrants.png", to: dir.file("in/q.png")))]
    let delivered = try #require(try await client.add(r).delivered)
    #expect(delivered.request.content.attachments.first?.info?.storePath.isEmpty == false)
    #expect(try await client.allDelivered().count == 1)
  }
}
