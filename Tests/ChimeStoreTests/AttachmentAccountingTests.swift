import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

/// Which request lineage holds which store file, the per-app quota, and which files a change
/// lets go of (for the daemon to unlink after the commit).
@Suite struct AttachmentAccountingTests {
  static func request(_ id: String, files: [(String, UInt64)], after seconds: Double = 60, repeats: Bool = false) -> NotificationRequest {
    var request = Fixtures.request(id, after: seconds, repeats: repeats)
    request.content.attachments = files.map { path, bytes in
      var info = AttachmentInfo()
      info.storePath = path
      info.bytes = bytes
      info.type = MediaType.png.uti
      info.mediaClass = "image"
      return Attachment(identifier: path, path: "/src" + path, info: info)
    }
    return request
  }

  func rows(_ store: StoreFixture) throws -> [String: (pending: Bool, delivered: Bool)] {
    var result: [String: (pending: Bool, delivered: Bool)] = [:]
    try store.db.pool.read { db in
      for row in try Row.fetchAll(db, sql: "SELECT path, in_pending, in_delivered FROM attachment") {
        result[row[0]] = (row[1], row[2])
      }
    }
    return result
  }

  @Test func replacingARequestLetsGoOfItsFilesAndKeepsTheNewOnes() throws {
    let store = try StoreFixture()
    try store.add("app", Self.request("a", files: [("/s/1.png", 100), ("/s/2.png", 50)]))
    #expect(try store.db.attachmentUsage(app: "app") == 150)
    let outcome = try store.commit(.add(app: "app", pending: Fixtures.pending(Self.request("a", files: [("/s/3.png", 10)]), added: t0), at: t0))
    #expect(outcome.replaced)
    #expect(outcome.discardedFiles.sorted() == ["/s/1.png", "/s/2.png"])
    #expect(try store.db.attachmentUsage(app: "app") == 10)
    #expect(try store.db.attachmentPaths() == ["/s/3.png"])
  }

  @Test func aFireHandsTheFilesToTheDeliveredNotificationAndRemovingItFreesThem() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Self.request("a", files: [("/s/1.png", 100)]))
    let fired = try store.fire(ScheduleKey(due: pending.nextFire, app: "app", identifier: "a"), now: pending.nextFire, missedGraceMillis: 2000)
    #expect(fired.delivered != nil)
    #expect(fired.discardedFiles.isEmpty)
    #expect(try rows(store)["/s/1.png"].map { [$0.pending, $0.delivered] } == [false, true])
    #expect(try store.db.attachmentUsage(app: "app") == 100)

    let removed = try store.commit(.removeDelivered(app: "app", identifiers: ["a"], at: t0))
    #expect(removed.discardedFiles == ["/s/1.png"])
    #expect(try store.db.attachmentUsage(app: "app") == 0)
  }

  @Test func aRepeatingRequestAndItsDeliveredNotificationShareTheFile() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Self.request("r", files: [("/s/r.png", 100)], repeats: true))
    try store.fire(ScheduleKey(due: pending.nextFire, app: "app", identifier: "r"), now: pending.nextFire, missedGraceMillis: 2000)
    #expect(try rows(store)["/s/r.png"].map { [$0.pending, $0.delivered] } == [true, true])
    // Removing the delivered notification keeps the file: the pending request still holds it.
    #expect(try store.commit(.removeDelivered(app: "app", identifiers: ["r"], at: t0)).discardedFiles.isEmpty)
    #expect(try store.commit(.removePending(app: "app", identifiers: ["r"], at: t0)).discardedFiles == ["/s/r.png"])
  }

  @Test func aNewDeliveryLetsGoOfTheEarlierDeliveredNotificationsFiles() throws {
    let store = try StoreFixture()
    let first = try store.add("app", Self.request("a", files: [("/s/old.png", 100)]))
    try store.fire(ScheduleKey(due: first.nextFire, app: "app", identifier: "a"), now: first.nextFire, missedGraceMillis: 2000)
    let second = try store.add("app", Self.request("a", files: [("/s/new.png", 10)]))
    let fired = try store.fire(ScheduleKey(due: second.nextFire, app: "app", identifier: "a"), now: second.nextFire, missedGraceMillis: 2000)
    #expect(fired.discardedFiles == ["/s/old.png"])
    #expect(try store.db.attachmentPaths() == ["/s/new.png"])
  }

  @Test func aSkippedMissedFireOfAOneShotRequestFreesItsFiles() throws {
    let store = try StoreFixture()
    var request = Self.request("a", files: [("/s/1.png", 100)])
    request.missedFire = MissedFirePolicy(action: .skip)
    let pending = try store.add("app", request)
    let late = pending.nextFire.adding(millis: 3_600_000)
    let outcome = try store.fire(ScheduleKey(due: pending.nextFire, app: "app", identifier: "a"), now: late, missedGraceMillis: 2000)
    #expect(outcome.delivered == nil)
    #expect(outcome.discardedFiles == ["/s/1.png"])
  }

  @Test func removingAllOfAnAppsRequestsFreesOnlyThatAppsFiles() throws {
    let store = try StoreFixture()
    try store.add("app", Self.request("a", files: [("/s/a.png", 1)]))
    try store.add("app", Self.request("b", files: [("/s/b.png", 2)]))
    try store.add("other", Self.request("a", files: [("/s/o.png", 4)]))
    let outcome = try store.commit(.removePending(app: "app", identifiers: nil, at: t0))
    #expect(outcome.discardedFiles.sorted() == ["/s/a.png", "/s/b.png"])
    #expect(try store.db.attachmentUsage(app: "other") == 4)
  }

  @Test func overTheQuotaTheAddFailsAndChangesNothing() throws {
    let store = try StoreFixture(quota: 1000)
    try store.add("app", Self.request("a", files: [("/s/a.png", 600)]))
    let results = store.db.commit([
      .add(app: "app", pending: Fixtures.pending(Self.request("b", files: [("/s/b.png", 500)]), added: t0), at: t0),
      .add(app: "other", pending: Fixtures.pending(Self.request("b", files: [("/s/c.png", 500)]), added: t0), at: t0),
    ])
    #expect(results[0].failure?.code == .resourceExhausted)
    #expect(results[0].failure?.reason == "ATTACHMENT_QUOTA_EXCEEDED")
    #expect((try? results[1].get()) != nil, "another app's quota is its own")
    #expect(try store.allPending("app").map(\.request.identifier) == ["a"])
    #expect(try store.db.attachmentUsage(app: "app") == 600)
    // Alone in its batch (no savepoint: the transaction is rolled back), the same refusal
    // leaves no row, no event and no held file behind either.
    let cursorBefore = try store.db.lastCursor()
    let alone = store.db.commit([.add(app: "app", pending: Fixtures.pending(Self.request("c", files: [("/s/d.png", 500)]), added: t0), at: t0)])
    #expect(alone[0].failure?.reason == "ATTACHMENT_QUOTA_EXCEEDED")
    #expect(try store.allPending("app").map(\.request.identifier) == ["a"])
    #expect(try store.db.attachmentUsage(app: "app") == 600)
    #expect(try store.db.lastCursor() == cursorBefore)
    // Replacing the request that holds the bytes frees them for its replacement.
    try store.add("app", Self.request("a", files: [("/s/a2.png", 900)]))
    #expect(try store.db.attachmentUsage(app: "app") == 900)
    #expect(try store.db.attachmentUsage(app: "app", replacing: "a") == 0)
  }

  @Test func registeredLayoutsRoundTripAndReplace() throws {
    let store = try StoreFixture()
    #expect(try store.db.app("org.example.a") == nil)
    let layout = AppLayout(appID: "org.example.a", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")
    try store.commit(.registerApp(layout: layout, at: t0))
    #expect(try store.db.app("org.example.a") == layout)
    var moved = layout
    moved.groupContainers = ["/g2"]
    try store.commit(.registerApp(layout: moved, at: t0))
    try store.reopen()
    #expect(try store.db.apps() == [moved])
  }
}
