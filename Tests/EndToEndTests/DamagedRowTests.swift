import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// Cells of another type than their column's, written into a stopped daemon's store (SQLite
/// keeps them whatever the declared type or NOT NULL; a decode that trapped on them would stop
/// chimed at its first read of the row): chimed starts and keeps serving, what reads a damaged row answers INTERNAL `STORE_CORRUPT` naming the record, other
/// apps are served, and the scheduler leaves a damaged due row pending and fires the rest.
@Suite(.testTimeLimit) struct DamagedRowTests {
  let damaged = "org.example.damaged"
  let healthy = "org.example.healthy"

  func later(_ identifier: String) -> NotificationRequest {
    NotificationRequest(identifier: identifier, content: NotificationContent(title: identifier),
                        trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600, repeats: false)))
  }

  func expectCorrupt(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ call: () async throws -> Void) async {
    do {
      try await call()
      Issue.record("a damaged \(what) was read", sourceLocation: sourceLocation)
    } catch let error as ChimeError {
      #expect(error.reason == "STORE_CORRUPT", "\(error)", sourceLocation: sourceLocation)
      #expect(error.code == .internal, "\(error)", sourceLocation: sourceLocation)
      #expect(error.message.contains("stored \(what) could not be read"), "\(error.message)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func chimedServesAroundWrongTypedCells() async throws {
    let dir = TemporaryDirectory()
    var daemon = DaemonProcess(directory: dir)
    try daemon.start()
    do {
      let d = try ChimeClient.connect(socketPath: daemon.socketPath, app: damaged, timeout: 30)
      _ = try await d.add(later("bad"))
      _ = try await d.add(NotificationRequest(identifier: "shown", content: NotificationContent(title: "shown")))
      let h = try ChimeClient.connect(socketPath: daemon.socketPath, app: healthy, timeout: 30)
      _ = try await h.add(later("soon"))
      _ = try await h.add(later("kept"))
    }
    #expect(daemon.terminate() == 0)

    // Both due now: the scheduler reads them in one snapshot at start-up.
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let store = try DatabaseQueue(path: daemon.dataDirectory + "/chime.db")
    try store.write { db in
      try db.execute(sql: "UPDATE pending SET body = 42, next_fire = ? WHERE app = ? AND identifier = 'bad'", arguments: [now, damaged])
      try db.execute(sql: "UPDATE pending SET next_fire = ? WHERE app = ? AND identifier = 'soon'", arguments: [now, healthy])
      try db.execute(sql: "UPDATE delivered SET body = 7 WHERE app = ?", arguments: [damaged])
      try db.execute(sql: "INSERT INTO app (id, container, groups, bundle, registered_at) VALUES (?, '', 3, '', 0)", arguments: [damaged])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending WHERE typeof(body) = 'integer'") == 1)
    }
    store.close()

    daemon = DaemonProcess(directory: dir)
    try daemon.start()
    // The healthy app's due request fires: it was read with the damaged one, so the scheduler
    // went past it.
    let fired = { (try? ChimeCLI.run(["delivered", "--json"], socket: daemon.socketPath, app: healthy, timeout: 10))?
      .objects?.contains { $0["id"] as? String == "soon" } == true }
    #expect(pollUntil(within: 30) { !daemon.isRunning || fired() })
    try #require(daemon.isRunning, "\(daemon.log)")
    #expect(fired())

    let d = try ChimeClient.connect(socketPath: daemon.socketPath, app: damaged, timeout: 30)
    await expectCorrupt("pending request") { _ = try await d.pending() }
    await expectCorrupt("delivered notification") { _ = try await d.delivered() }
    await expectCorrupt("app registration") { _ = try await d.appLayout() }
    await expectCorrupt("app registration") { _ = try await d.checkSound("bell.wav") }
    // Removing the damaged rows needs no decoding of them, and mends the app's lists.
    #expect(try await d.removeAllPending() == ["bad"])
    #expect(try await d.removeAllDelivered() == ["shown"])
    #expect(try await d.allPending().isEmpty)

    let h = try ChimeClient.connect(socketPath: daemon.socketPath, app: healthy, timeout: 30)
    #expect(try await h.allPending().map(\.request.identifier) == ["kept"])
    _ = try await h.add(later("after"))
    #expect(try await h.allPending().count == 2)
    #expect(daemon.isRunning, "\(daemon.log)")
    #expect(daemon.log.contains("unreadable"), "the damage is logged: \(daemon.log)")
    #expect(daemon.terminate() == 0)
  }
}
