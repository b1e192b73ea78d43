import ChimeCore
import ChimeRecords
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A store written before v8 (event cursors from AUTOINCREMENT, an index per app) opens with
/// its events and cursors as they were, and new events go on past every cursor it handed out.
@Suite struct EventLogMigrationTests {
  let dir = TemporaryDirectory()

  /// A v7 store at `path` with `count` events, alternating between two apps; then `delete`
  /// runs on it (raw SQL, as an older version might have left it).
  func v7Store(_ path: String, events count: Int, then delete: String? = nil) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(queue, upTo: "v7: app display name and desktop entry")
    let codec = RecordCodec()
    try queue.write { db in
      for i in 0..<count {
        let event = Event(at: Instant(unixMillis: 1_800_000_000_000 + Int64(i)), kind: .badgeChanged, badgeCount: i)
        try db.execute(sql: "INSERT INTO event (app, at, kind, body) VALUES (?, ?, ?, ?)",
                       arguments: [i % 2 == 0 ? "a" : "b", event.at.unixMillis, event.kind.rawValue, codec.encode(event)])
      }
      if let delete { try db.execute(sql: delete) }
    }
    queue.close()
  }

  @Test func eventsAndCursorsSurviveAndNewOnesGoOn() throws {
    let path = dir.file("state/chime.db")
    try v7Store(path, events: 5)
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    #expect(try database.lastCursor() == 5)
    #expect(try database.events(app: "a", after: 0, limit: 10).map(\.cursor) == [1, 3, 5])
    #expect(try database.events(app: "b", after: 1, limit: 10).map(\.badgeCount) == [1, 3])
    let pending = PendingRequest(request: NotificationRequest(identifier: "x", content: NotificationContent(title: "x"),
                                                              trigger: .timeInterval(TimeIntervalTrigger(seconds: 60))),
                                 nextFire: Instant(unixMillis: 1_900_000_000_000), added: Instant(unixMillis: 1_800_000_000_000))
    let added = try database.commit(AddPending(app: "a", pending: pending, at: pending.added)).get()
    #expect(added.events.map(\.cursor) == [6])
    let indexes = try database.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'event' AND type = 'index'") }
    #expect(indexes.isEmpty, "no per-app index is written any more: \(indexes)")
  }

  @Test func aSequenceAheadOfTheStoredEventsIsNeverReused() throws {
    // Cursors 4 and 5 were handed out and are gone: AUTOINCREMENT's sequence says 5.
    let path = dir.file("ahead/chime.db")
    try v7Store(path, events: 5, then: "DELETE FROM event WHERE cursor > 3")
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    #expect(try database.lastCursor() == 5)
    let pending = PendingRequest(request: NotificationRequest(identifier: "y", content: NotificationContent(title: "y"),
                                                              trigger: .timeInterval(TimeIntervalTrigger(seconds: 60))),
                                 nextFire: Instant(unixMillis: 1_900_000_000_000), added: Instant(unixMillis: 1_800_000_000_000))
    let added = try database.commit(AddPending(app: "b", pending: pending, at: pending.added)).get()
    #expect(added.events.map(\.cursor) == [6], "past every cursor the old store handed out")
    #expect(try database.events(app: "b", after: 3, limit: 10).map(\.cursor) == [6])
  }
}
