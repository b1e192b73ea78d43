import ChimeCore
import ChimeRecords
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// What a Do Not Disturb summary counts: quiet deliveries marked until a summary counts them
/// (v12), over a v11 store summarized by instant.
@Suite struct QuietSummaryStoreTests {
  static func delivered(_ id: String, at: Instant, quiet: Bool) -> DeliveredNotification {
    var delivered = DeliveredNotification(request: NotificationRequest(identifier: id, content: NotificationContent(title: id)),
                                          delivered: at, due: at)
    delivered.quiet = quiet
    return delivered
  }

  /// A v11 store keeps what its mark said: quiet deliveries after `summarized_through` are
  /// counted in the next summary, those at or before it and the ones shown are not.
  @Test func aV11StoreCountsTheQuietDeliveriesAfterItsMark() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("state/chime.db")
    try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(queue, upTo: "v11: snoozed notifications")
    let codec = RecordCodec()
    let mark = t0.adding(seconds: 100)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO do_not_disturb (id, manual_on, summarized_through, changed_at) VALUES (1, 0, ?, ?)",
                     arguments: [mark.unixMillis, mark.unixMillis])
      for (id, seconds, quiet) in [("summarized", 50.0, true), ("at-the-mark", 100.0, true), ("shown", 150.0, false),
                                   ("quiet-1", 160.0, true), ("quiet-2", 170.0, true)] {
        let d = Self.delivered(id, at: t0.adding(seconds: seconds), quiet: quiet)
        try db.execute(sql: "INSERT INTO delivered (app, identifier, delivered_at, due, missed, body) VALUES ('app', ?, ?, ?, 0, ?)",
                       arguments: [id, d.delivered.unixMillis, d.due.unixMillis, codec.encode(d)])
      }
    }
    queue.close()

    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    let quiet = try database.quietDeliveriesNotSummarized()
    #expect(quiet.summary.apps == [DoNotDisturbSummary.AppCount(name: "app", count: 2)])
    #expect(quiet.rows.count == 2)
    _ = try database.commit(MarkDoNotDisturbSummarized(rows: quiet.rows)).get()
    #expect(try database.quietDeliveriesNotSummarized().summary.isEmpty)
  }

  /// Delivered again, not quietly, between the count and the mark: the new delivery is not
  /// counted (it was shown), and the mark leaves it alone; a quiet one after the count waits for
  /// the next summary.
  @Test func theMarkClearsOnlyWhatWasCounted() throws {
    let store = try StoreFixture()
    _ = try store.commit(.deliverNow(app: "app", delivered: Self.delivered("a", at: t0, quiet: true), at: t0))
    let counted = try store.db.quietDeliveriesNotSummarized()
    #expect(counted.summary.total == 1)
    _ = try store.commit(.deliverNow(app: "app", delivered: Self.delivered("b", at: t0, quiet: true), at: t0))
    _ = try store.commit(MarkDoNotDisturbSummarized(rows: counted.rows))
    let next = try store.db.quietDeliveriesNotSummarized()
    #expect(next.summary.total == 1 && next.rows.count == 1, "b waits for the next summary")
    // Delivered again shown: no longer quiet, nothing to count.
    _ = try store.commit(.deliverNow(app: "app", delivered: Self.delivered("b", at: t0.adding(seconds: 1), quiet: false), at: t0))
    #expect(try store.db.quietDeliveriesNotSummarized().summary.isEmpty)
  }

  /// Counted and marked in one commit at the end: a quiet delivery committed after it (a window
  /// opened again at once) is left for the next summary, and nothing is counted twice.
  @Test func anEndCountsAndMarksInOneCommit() throws {
    let store = try StoreFixture()
    _ = try store.commit(.deliverNow(app: "app", delivered: Self.delivered("a", at: t0, quiet: true), at: t0))
    let first = try store.commit(SummarizeQuietDeliveries())
    #expect(first.summary.total == 1)
    _ = try store.commit(.deliverNow(app: "app", delivered: Self.delivered("b", at: t0.adding(seconds: 1), quiet: true), at: t0))
    let second = try store.commit(SummarizeQuietDeliveries())
    #expect(second.summary.total == 1 && second.rows.count == 1, "only b")
    #expect(try store.commit(SummarizeQuietDeliveries()).summary.isEmpty)
  }
}
