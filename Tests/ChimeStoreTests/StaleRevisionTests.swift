import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

/// A fire or a time-zone re-plan is planned from a reading of the pending row and applied only
/// if the row is still that reading: due at the same instant, at the same fire count, with the
/// same stored request. A row replaced in between (even one due at the same instant) is left
/// as it is now.
@Suite struct StaleRevisionTests {
  let grace: Int64 = 2000

  func key(_ pending: PendingRequest, app: String = "app") -> ScheduleKey {
    ScheduleKey(due: pending.nextFire, app: app, identifier: pending.request.identifier)
  }

  func row(_ store: StoreFixture, _ key: ScheduleKey) throws -> PendingRow {
    guard case .current(let row) = try store.db.dueRows([key])[0] else { throw NoCurrentRow() }
    return row
  }

  struct NoCurrentRow: Error {}

  func fire(_ row: PendingRow, at now: Instant) -> Fire {
    let plan = FirePlan.decide(row.pending.request, due: row.key.due, now: now, missedGraceMillis: grace, zone: Zone.named("UTC")!)
    return Fire(row, plan: plan, now: now, sound: row.pending.sound)
  }

  @Test func aFirePlannedBeforeAReplacementDueAtTheSameInstantIsStale() throws {
    let store = try StoreFixture()
    let old = try store.add("app", Fixtures.request("a", after: 60, title: "old"))
    let planned = fire(try row(store, key(old)), at: old.nextFire)
    // Replaced while the fire was being prepared: new content, due at the same instant.
    let replacement = try store.add("app", Fixtures.request("a", after: 60, title: "new"))
    #expect(replacement.nextFire == old.nextFire)
    let cursor = try store.db.lastCursor()

    #expect(try store.commit(planned).isStale)
    #expect(try store.allDelivered("app").isEmpty, "the old content is not delivered")
    #expect(try store.db.pending(app: "app", identifier: "a") == replacement)
    #expect(try store.db.lastCursor() == cursor)
    // Read again, the replacement fires with its own content.
    let fired = try store.commit(fire(try row(store, key(replacement)), at: replacement.nextFire))
    #expect(fired.delivered?.request.content.title == "new")
  }

  @Test func aFirePlannedAtAnotherFireCountIsStale() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    var planned = fire(try row(store, key(pending)), at: pending.nextFire)
    planned.revision = PendingRevision(fireCount: planned.revision.fireCount + 1, body: planned.revision.body)
    #expect(try store.commit(planned).isStale)
    #expect(try store.allDelivered("app").isEmpty)
    #expect(try store.db.pending(app: "app", identifier: "r")?.fireCount == 0)
    #expect(try store.db.pending(app: "app", identifier: "r")?.nextFire == pending.nextFire)
  }

  @Test func aReplanPlannedBeforeAReplacementLeavesTheReplacement() throws {
    let store = try StoreFixture()
    func daily(_ hour: Int, title: String) -> NotificationRequest {
      var components = CalendarComponents()
      components.hour = hour
      components.minute = 0
      return NotificationRequest(identifier: "f", content: NotificationContent(title: title),
                                 trigger: .calendar(CalendarTrigger(components: components, repeats: true)))
    }
    _ = try store.add("app", daily(9, title: "old"))
    let read = try #require(try store.db.floatingRows(after: nil, limit: 10).first)
    let replacement = try store.add("app", daily(10, title: "new"))
    let moved = read.key.due.adding(seconds: 3600 * 5)

    let outcome = try store.commit(ReplanFloating(zone: Zone.named("Asia/Tokyo")!,
                                                  changes: [.init(row: read, decision: .move(to: moved))], at: t0))
    #expect(outcome.rescheduled.isEmpty)
    #expect(outcome.appEvents.isEmpty)
    #expect(try store.db.pending(app: "app", identifier: "f") == replacement, "the replacement keeps its own next date")
  }
}
