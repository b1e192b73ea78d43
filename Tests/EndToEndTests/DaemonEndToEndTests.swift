import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The real `chimed` binary on a socket in a temporary directory, driven through the real client.
@Suite(.testTimeLimit, .serialized) struct DaemonEndToEndTests {
  func started(_ directory: TemporaryDirectory, _ arguments: [String] = []) throws -> DaemonProcess {
    let daemon = DaemonProcess(directory: directory, arguments: arguments)
    try daemon.start()
    return daemon
  }

  @Test func printsItsSocketAndRestrictsIt() throws {
    let dir = TemporaryDirectory()
    let daemon = try started(dir)
    #expect(daemon.listeningLine == "chimed listening on \(dir.socketPath)")
    let attributes = try FileManager.default.attributesOfItem(atPath: dir.socketPath)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(daemon.terminate() == 0)
    #expect(!FileManager.default.fileExists(atPath: dir.socketPath))
  }

  @Test func refusesToStartOverALiveDaemon() throws {
    let dir = TemporaryDirectory()
    let first = try started(dir)
    let second = DaemonProcess(directory: dir)
    #expect(throws: ChimeError.self) { try second.start(timeout: 20) }
    #expect(second.log.contains("already serving"))
    #expect(first.isRunning)
  }

  /// A second daemon on the same socket with its own store is refused and leaves the socket
  /// file alone: the first stays reachable (the refused one must not unlink the live socket).
  @Test func aRefusedSecondDaemonLeavesTheFirstReachable() async throws {
    let dir = TemporaryDirectory()
    let first = try started(dir)
    let client = try ChimeClient.connect(socketPath: first.socketPath, app: "org.example.first")
    _ = try await client.add(NotificationRequest(
      identifier: "kept", content: NotificationContent(title: "Kept"),
      trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
    let elsewhere = TemporaryDirectory()
    let second = DaemonProcess(directory: dir, arguments: ["--data-dir", elsewhere.file("data")])
    #expect(throws: ChimeError.self) { try second.start(timeout: 20) }
    #expect(second.waitForExit() == 1)
    #expect(second.log.contains("another chimed (pid \(first.processIdentifier)) is already serving \(dir.socketPath)"))
    #expect(FileManager.default.fileExists(atPath: dir.socketPath))
    #expect(!FileManager.default.fileExists(atPath: elsewhere.file("data/chime.db")))
    let again = try ChimeClient.connect(socketPath: first.socketPath, app: "org.example.first")
    #expect(try await again.allPending().map(\.request.identifier) == ["kept"])
    #expect(first.terminate() == 0)
  }

  /// A damaged store stops chimed before it serves, with what to do; the file is left as it was.
  @Test func aDamagedStoreIsRefusedWithWhatToDo() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try FileManager.default.createDirectory(atPath: daemon.dataDirectory, withIntermediateDirectories: true)
    let store = daemon.dataDirectory + "/chime.db"
    let junk = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try junk.write(to: URL(fileURLWithPath: store))
    #expect(throws: ChimeError.self) { try daemon.start(timeout: 20) }
    #expect(daemon.waitForExit() != 0)
    #expect(daemon.log.contains("is damaged"), "\(daemon.log)")
    #expect(daemon.log.contains("mv \(store) \(store).damaged"), "\(daemon.log)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == junk)
    #expect(!FileManager.default.fileExists(atPath: dir.socketPath))
  }

  /// Two daemons never share a store, whatever sockets they serve.
  @Test func aSecondDaemonOnTheSameDataDirectoryIsRefused() async throws {
    let dir = TemporaryDirectory()
    let first = try started(dir)
    let other = TemporaryDirectory()
    let second = DaemonProcess(directory: other, arguments: ["--data-dir", first.dataDirectory])
    #expect(throws: ChimeError.self) { try second.start(timeout: 20) }
    #expect(second.waitForExit() == 1)
    #expect(second.log.contains("the data directory \(first.dataDirectory) is in use by another chimed"))
    #expect(second.log.contains("pid \(first.processIdentifier)"))
    #expect(!FileManager.default.fileExists(atPath: other.socketPath))
    let client = try ChimeClient.connect(socketPath: first.socketPath, app: "org.example.first")
    #expect(try await client.allPending().isEmpty)
    // Once the first has stopped, the directory is free again.
    #expect(first.terminate() == 0)
    let third = DaemonProcess(directory: other, arguments: ["--data-dir", first.dataDirectory])
    try third.start()
    #expect(third.terminate() == 0)
  }

  @Test func addFiresOnTimeAndIsDeliveredWithAnEvent() async throws {
    let dir = TemporaryDirectory()
    let daemon = try started(dir)
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let result = try await client.add(NotificationRequest(
      identifier: "tea", content: NotificationContent(title: "Tea", body: "Steeped"),
      trigger: .timeInterval(TimeIntervalTrigger(seconds: 0.3))))
    let due = result.pending.nextFire
    let event = try await nextEvent(&events, within: 10) { $0.kind == .delivered }
    let delivered = try #require(event.delivered)
    #expect(delivered.due == due)
    #expect(delivered.delivered >= due)  // never early
    #expect(delivered.delivered.millis(since: due) < 1000)
    #expect(!delivered.missed)
    #expect(try await client.allDelivered().map(\.request.identifier) == ["tea"])
    #expect(try await client.allPending().isEmpty)
    #expect(daemon.terminate() == 0)
  }

  @Test func replaceRemoveAndAppIsolationThroughTheRealDaemon() async throws {
    let dir = TemporaryDirectory()
    let daemon = try started(dir)
    let alice = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.alice")
    let bob = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.bob")
    let trigger = Trigger.timeInterval(TimeIntervalTrigger(seconds: 3600))
    _ = try await alice.add(NotificationRequest(identifier: "x", content: NotificationContent(title: "First"), trigger: trigger))
    let second = try await alice.add(NotificationRequest(identifier: "x", content: NotificationContent(title: "Second"), trigger: trigger))
    #expect(second.replaced)
    let pending = try await alice.allPending()
    #expect(pending.map(\.request.content.title) == ["Second"])
    #expect(try await bob.allPending().isEmpty)
    #expect(try await bob.removePending(["x"]).isEmpty)
    #expect(try await alice.removePending(["x"]) == ["x"])
    #expect(try await alice.allPending().isEmpty)
    #expect(daemon.terminate() == 0)
  }

  @Test func restartKeepsPendingAndDeliversMissedFiresOnce() async throws {
    let dir = TemporaryDirectory()
    var daemon = try started(dir)
    var client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    let once = try await client.add(NotificationRequest(identifier: "once", content: NotificationContent(title: "Once"),
                                                        trigger: .timeInterval(TimeIntervalTrigger(seconds: 600))))
    let hourly = try await client.add(NotificationRequest(identifier: "hourly", content: NotificationContent(title: "Hourly"),
                                                          trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600, repeats: true))))
    _ = try await client.add(NotificationRequest(identifier: "later", content: NotificationContent(title: "Later"),
                                                 trigger: .timeInterval(TimeIntervalTrigger(seconds: 86400 * 30))))
    #expect(daemon.terminate() == 0)

    // Back after "five and a half hours" of downtime: the daemon's clock is shifted forward
    // instead of the test sleeping.
    daemon = try started(dir, ["--clock-offset", "\(5.5 * 3600)"])
    client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    var events = client.subscribe(after: 0).makeAsyncIterator()
    var delivered: [String: DeliveredNotification] = [:]
    while delivered.count < 2 {
      let e = try await nextEvent(&events, within: 10) { $0.kind == .delivered }
      #expect(delivered[e.identifiers[0]] == nil, "delivered twice: \(e.identifiers)")
      delivered[e.identifiers[0]] = e.delivered
    }
    #expect(delivered["once"]?.missed == true)
    #expect(delivered["once"]?.due == once.pending.nextFire)
    #expect(delivered["hourly"]?.missed == true)
    #expect(delivered["hourly"]?.due == hourly.pending.nextFire)
    let pending = try await client.allPending()
    #expect(Set(pending.map(\.request.identifier)) == ["hourly", "later"])
    let nextHourly = try #require(pending.first { $0.request.identifier == "hourly" })
    // Due at +1 h, back at +5.5 h: the next fire is +6 h, on the original hourly grid.
    #expect(nextHourly.nextFire == hourly.pending.nextFire.adding(seconds: 5 * 3600))
    #expect(try await client.allDelivered().count == 2)
    #expect(daemon.terminate() == 0)
  }

  @Test func killNineRightAfterAcknowledgedAddsLosesNothing() async throws {
    let dir = TemporaryDirectory()
    var daemon = try started(dir)
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    let count = 200
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<count {
        group.addTask {
          _ = try await client.add(NotificationRequest(identifier: "r\(i)", content: NotificationContent(title: "R\(i)"),
                                                       trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))
        }
      }
      try await group.waitForAll()
    }
    daemon.kill9()
    daemon = try started(dir)
    let after = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    #expect(try await after.allPending().count == count)
    #expect(daemon.terminate() == 0)
  }

  @Test func otherClientsKeepBeingServedWhileOneSendsGarbage() async throws {
    let dir = TemporaryDirectory()
    let daemon = try started(dir)
    let garbage = try RawSocket(path: daemon.socketPath)
    garbage.write([0, 0, 0, 5, 1, 2, 3, 4, 5])
    #expect(garbage.waitForEOF(timeout: 5))
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.e2e")
    _ = try await client.add(NotificationRequest(identifier: "ok", content: NotificationContent(title: "OK"),
                                                 trigger: .timeInterval(TimeIntervalTrigger(seconds: 60))))
    #expect(try await client.allPending().count == 1)
    #expect(daemon.isRunning)
  }
}
