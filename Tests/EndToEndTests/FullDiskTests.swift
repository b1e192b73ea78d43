import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// chimed's data directory on a 4 MiB tmpfs, filled: adds that cannot commit are refused with
/// RESOURCE_EXHAUSTED and a reason, reads and subscriptions keep being served, nothing
/// acknowledged is lost, and adds work again once space is freed — without a restart.
@Suite(.testTimeLimit) struct FullDiskTests {
  static let isRoot = geteuid() == 0
  let app = "org.example.full"

  @Test(.enabled(if: isRoot, "mounting a small tmpfs needs root (CI runs the tests as root)"))
  func aFullDiskRefusesAddsWithAStatusAndRecovers() async throws {
    let dir = TemporaryDirectory()
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let mount = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", data])
    try #require(mount.status == 0, "mount: \(mount.errors)")
    defer { _ = try? ChildProcess.run("/bin/umount", [data]) }

    let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps"), "--presenter", "none", "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 30)
    var live = client.subscribe(after: 0).makeAsyncIterator()
    _ = try await nextEvent(&live) { $0.kind == .subscribed }

    // Fill the disk but for a little, then add until an add cannot commit.
    let filler = data + "/filler"
    Self.fill(filler)
    var acked: [String] = []
    var refusal: ChimeError?
    let body = String(repeating: "x", count: 2000)
    for i in 0..<5000 {
      let id = "n\(i)"
      let error = await caughtError {
        _ = try await client.add(NotificationRequest(identifier: id, content: NotificationContent(title: "N", body: body),
                                                     trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
      }
      if let error {
        refusal = error
        break
      }
      acked.append(id)
    }
    let refused = try #require(refusal, "the disk never filled")
    #expect(refused.code == .resourceExhausted, "\(refused)")
    #expect(refused.reason == "STORE_FULL", "\(refused)")

    // Full: reads and subscriptions are served; more adds are refused the same way.
    #expect(Set(try await client.allPending().map(\.request.identifier)) == Set(acked))
    let again = await caughtError {
      _ = try await client.add(NotificationRequest(identifier: "more", content: NotificationContent(title: "M", body: body),
                                                   trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
    }
    #expect(again?.code == .resourceExhausted, "\(String(describing: again))")
    let other = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 30)
    var replay = other.subscribe(after: 0).makeAsyncIterator()
    _ = try await nextEvent(&replay) { $0.kind == .subscribed }
    // An attachment that cannot be stored is refused with a status too.
    let png = MediaCorpus.write(MediaCorpus.data("images/png-rgb.png"), to: dir.file("work/p.png"))
    Self.fill(data + "/filler2")
    var withFile = NotificationContent(title: "P")
    withFile.attachments = [Attachment(path: png)]
    let attachError = await caughtError {
      _ = try await client.add(NotificationRequest(identifier: "pic", content: withFile,
                                                   trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
    }
    #expect(attachError?.code == .resourceExhausted, "\(String(describing: attachError))")
    #expect(attachError?.reason == "ATTACHMENT_STORE_FULL", "\(String(describing: attachError))")
    #expect(MediaCorpus.exists(png), "a refused attachment stays where it was")

    // Space again: adds succeed, on the same daemon, and the subscriber hears them.
    unlink(filler)
    unlink(data + "/filler2")
    _ = try await client.add(NotificationRequest(identifier: "after", content: withFile,
                                                 trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
    _ = try await nextEvent(&live) { $0.kind == .pendingAdded && $0.identifiers == ["after"] }
    #expect(try await client.allPending().count == acked.count + 1)
    #expect(daemon.isRunning)

    // Nothing acknowledged was lost, across a restart too.
    #expect(daemon.terminate() == 0)
    #expect(CrashRounds.integrityCheck(data + "/chime.db") == "ok")
    let restarted = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps"), "--presenter", "none", "--sound-player", "none"])
    try restarted.start()
    defer { restarted.terminate() }
    let after = try ChimeClient.connect(socketPath: restarted.socketPath, app: app, timeout: 30)
    #expect(Set(try await after.allPending().map(\.request.identifier)) == Set(acked + ["after"]))
  }

  /// Writes `path` until the file system is full (bounded: at most 8 MiB).
  static func fill(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0xA5, count: 4096)
    for _ in 0..<2048 {
      if chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) <= 0 { break }
    }
    // The last partial page, byte-sized.
    for _ in 0..<4096 {
      if chunk.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) <= 0 { break }
    }
  }
}
