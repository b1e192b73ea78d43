import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A store in a fresh temporary directory, removed when the fixture goes away.
final class StoreFixture {
  let directory: URL
  private let temporary: TemporaryDirectory
  let path: String
  let retention: Int
  let quota: Int64
  private(set) var db: ChimeDatabase

  init(retention: Int = ChimeDatabase.defaultEventRetention, directory parent: String? = nil,
       quota: Int64 = Limits.attachmentQuotaDefault) throws {
    self.quota = quota
    temporary = TemporaryDirectory(prefix: "chime-store", in: parent ?? "/tmp")
    directory = URL(fileURLWithPath: temporary.path)
    path = directory.appendingPathComponent("state/chime.db").path
    self.retention = retention
    db = try ChimeDatabase(path: path, eventRetention: retention, attachmentQuota: quota)
  }

  deinit {
    db.close()  // before `temporary` removes the directory
  }

  /// Closes the database and opens it again from disk.
  func reopen() throws {
    db.close()
    db = try ChimeDatabase(path: path, eventRetention: retention, attachmentQuota: quota)
  }

  /// Commits one mutation and returns its outcome, failing the test on an error.
  @discardableResult
  func commit<M: Mutation>(_ mutation: M) throws -> M.Outcome {
    try db.commit(mutation).get()
  }

  /// Fires `key` as the scheduler would: reads the row, plans the fire (`FirePlan`) and commits
  /// it with the sound as stored. `.stale` when the row no longer has that due instant.
  @discardableResult
  func fire(_ key: ScheduleKey, now: Instant, missedGraceMillis: Int64, zone: Zone = .utc) throws -> Fire.Outcome {
    guard case .current(let row) = try db.dueRows([key])[0] else { return .stale }
    let plan = FirePlan.decide(row.pending.request, due: key.due, now: now, missedGraceMillis: missedGraceMillis, zone: zone)
    return try commit(Fire(row, plan: plan, now: now, sound: row.pending.sound))
  }

  /// Adds a time-interval request for `app` at `at`; returns the stored pending request.
  @discardableResult
  func add(_ app: String, _ request: NotificationRequest, at: Instant = t0) throws -> PendingRequest {
    let pending = Fixtures.pending(request, added: at)
    try commit(AddPending(app: app, pending: pending, at: at))
    return pending
  }

  func deliverNow(_ app: String, _ identifier: String, at: Instant, title: String = "now") throws {
    let request = NotificationRequest(identifier: identifier, content: NotificationContent(title: title))
    try commit(DeliverNow(app: app, delivered: DeliveredNotification(request: request, delivered: at, due: at), at: at))
  }

  func allPending(_ app: String) throws -> [PendingRequest] {
    try db.pendingPage(app: app, page: PageRequest(pageSize: Limits.pageSizeMax)).items
  }

  func allDelivered(_ app: String) throws -> [DeliveredNotification] {
    try db.deliveredPage(app: app, page: PageRequest(pageSize: Limits.pageSizeMax)).items
  }
}

/// 2027-01-15T08:00:00Z.
let t0 = Instant(unixMillis: 1_800_000_000_000)

enum Fixtures {
  static func request(_ identifier: String, after seconds: Double = 60, repeats: Bool = false,
                      missedFire: MissedFirePolicy = .deliver, title: String = "hello") -> NotificationRequest {
    NotificationRequest(identifier: identifier, content: NotificationContent(title: title, body: "body of \(identifier)"),
                        trigger: .timeInterval(TimeIntervalTrigger(seconds: seconds, repeats: repeats)), missedFire: missedFire)
  }

  static func pending(_ request: NotificationRequest, added: Instant) -> PendingRequest {
    let first = (try? TriggerPlanner.firstFire(of: request.trigger, added: added)) ?? added
    return PendingRequest(request: request, nextFire: first, added: added, sound: SoundResolution(plays: .default))
  }
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Fire.Outcome {
  var isStale: Bool {
    if case .stale = self { return true }
    return false
  }

  var delivered: DeliveredNotification? {
    if case .fired(_, let delivered, _, _) = self { return delivered }
    return nil
  }

  var next: ScheduleKey? {
    if case .fired(_, _, let next, _) = self { return next }
    return nil
  }
}

extension Result where Success == any Sendable {
  /// The events of a batch result, for mutations whose outcome reports them.
  var events: [Event] {
    get throws { try ((get() as? any MutationOutcome)?.events).unwrap("an outcome with events") }
  }
}

extension Optional {
  func unwrap(_ what: String) throws -> Wrapped {
    guard let self else { throw ChimeError.internal("expected \(what)") }
    return self
  }
}

extension Row {
  /// The cell at `index` as `T`, for tests that know what they stored (the store's own code
  /// reads with the throwing `decode`).
  subscript<T: DatabaseValueConvertible>(_ index: Int) -> T {
    try! decode(T.self, atIndex: index)
  }
}
