import ChimeSystem
import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import Foundation
import Logging
import Testing
@testable import ChimeServer

/// Turning due keys into fire mutations, off any write transaction: the row read, the plan,
/// and the delivery-time sound check with the app's registered layout.
@Suite(.testTimeLimit) struct FirePreparationTests {
  static let t0 = Instant(unixMillis: 1_800_000_000_000)

  /// The layouts the sound check was given, in order.
  final class Seen: Sendable {
    private let layouts = Locked<[AppLayout?]>([])
    func append(_ layout: AppLayout?) { layouts.withLock { $0.append(layout) } }
    var all: [AppLayout?] { layouts.withLock { $0 } }
  }

  final class Fixture: @unchecked Sendable {
    let directory = TemporaryDirectory()
    let database: ChimeDatabase
    let seen = Seen()

    init() throws {
      database = try ChimeDatabase(path: directory.file("chime.db"))
    }

    deinit { database.close() }

    /// A pending request that plays a named sound, due 60 s after t0.
    func addNamedSound(_ identifier: String = "s", missedFire: MissedFirePolicy = .deliver) throws -> ScheduleKey {
      let request = NotificationRequest(identifier: identifier, content: NotificationContent(title: "t"),
                                        trigger: .timeInterval(TimeIntervalTrigger(seconds: 60)), missedFire: missedFire)
      var sound = SoundResolution(plays: .named)
      sound.path = "/apps/app/container/Library/Sounds/ding.wav"
      let pending = PendingRequest(request: request, nextFire: FirePreparationTests.t0.adding(seconds: 60), added: FirePreparationTests.t0, sound: sound)
      _ = try database.commit(AddPending(app: "app", pending: pending, at: FirePreparationTests.t0)).get()
      return ScheduleKey(due: pending.nextFire, app: "app", identifier: identifier)
    }

    func preparation(answer: SoundResolution? = nil) -> FirePreparation {
      FirePreparation(database: database, missedGraceMillis: 2000, soundRecheck: { [seen] resolved, _, registered in
        seen.append(registered)
        return answer ?? resolved
      }, logger: Logger(label: "test"))
    }
  }

  static func fire(_ prepared: FirePreparation.Prepared) -> Fire? {
    if case .ready(let fire) = prepared { return fire }
    return nil
  }

  @Test func theCheckIsGivenTheAppsRegisteredLayout() throws {
    let f = try Fixture()
    let layout = AppLayout(appID: "app", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")
    _ = try f.database.commit(RegisterApp(layout: layout, at: Self.t0)).get()
    let key = try f.addNamedSound()
    let prepared = f.preparation().prepare([key], now: key.due, zone: .utc)
    #expect(f.seen.all == [layout])
    guard case .deliver(let delivered, let note)? = Self.fire(prepared[0])?.delivery else { Issue.record("not ready"); return }
    #expect(delivered.sound?.plays == .named)
    #expect(note.isEmpty)
  }

  @Test func eachDeliveryRecordsHowLongAfterItsDueInstantTheTimerWoke() throws {
    let f = try Fixture()
    let key = try f.addNamedSound()
    let late = f.preparation().prepare([key], now: key.due, zone: .utc, wokeMicros: key.due.unixMillis * 1000 + 1_234)
    guard case .deliver(let delivered, _)? = Self.fire(late[0])?.delivery else { Issue.record("not ready"); return }
    #expect(delivered.fireLatenessMicros == 1_234)
    // A monotonic wake a hair before the wall-clock due instant is on time, not negative.
    let early = f.preparation().prepare([key], now: key.due, zone: .utc, wokeMicros: key.due.unixMillis * 1000 - 40)
    guard case .deliver(let onTime, _)? = Self.fire(early[0])?.delivery else { Issue.record("not ready"); return }
    #expect(onTime.fireLatenessMicros == 0)
    let untimed = f.preparation().prepare([key], now: key.due, zone: .utc)
    guard case .deliver(let plain, _)? = Self.fire(untimed[0])?.delivery else { Issue.record("not ready"); return }
    #expect(plain.fireLatenessMicros == nil)
  }

  @Test func anUnreadableRegistrationStillDeliversCheckedAgainstTheDefaultLayout() throws {
    let f = try Fixture()
    _ = try f.database.commit(RegisterApp(layout: AppLayout(appID: "app", container: "/c", groupContainers: [], bundle: "/b"), at: Self.t0)).get()
    try f.database.pool.write { try $0.execute(sql: "UPDATE app SET groups = 'not json' WHERE id = 'app'") }
    let key = try f.addNamedSound()
    let prepared = f.preparation(answer: SoundResolution(plays: .default)).prepare([key], now: key.due, zone: .utc)
    #expect(f.seen.all == [nil], "the check runs, told there is no usable registration")
    guard case .deliver(let delivered, let note)? = Self.fire(prepared[0])?.delivery else { Issue.record("not ready"); return }
    #expect(delivered.sound?.plays == .default)
    #expect(note.hasPrefix("sound: "))
    let outcome = try f.database.commit(try #require(Self.fire(prepared[0]))).get()
    guard case .fired(let events, _, nil, _) = outcome else { Issue.record("not fired"); return }
    #expect(events.first?.note == note)
    #expect(try f.database.pending(app: "app", identifier: "s") == nil)
  }

  @Test func aSkippedFireLooksAtNoSound() throws {
    let f = try Fixture()
    let key = try f.addNamedSound(missedFire: MissedFirePolicy(action: .skip))
    let prepared = f.preparation().prepare([key], now: key.due.adding(seconds: 3600), zone: .utc)
    #expect(f.seen.all.isEmpty)
    guard case .skip? = Self.fire(prepared[0])?.delivery else { Issue.record("not a skip"); return }
  }

  @Test func aReplacedRowIsStaleAtReadAndAtCommit() throws {
    let f = try Fixture()
    let key = try f.addNamedSound()
    let stale = ScheduleKey(due: key.due.adding(seconds: 1), app: key.app, identifier: key.identifier)
    guard case .stale = f.preparation().prepare([stale], now: stale.due, zone: .utc)[0] else { Issue.record("not stale"); return }
    // Planned, then replaced before the commit (same due instant, new content): nothing fires.
    let prepared = f.preparation().prepare([key], now: key.due, zone: .utc)
    var replacement = try #require(try f.database.pending(app: "app", identifier: "s"))
    replacement.request.content.title = "replaced"
    _ = try f.database.commit(AddPending(app: "app", pending: replacement, at: Self.t0)).get()
    guard case .stale = try f.database.commit(try #require(Self.fire(prepared[0]))).get() else { Issue.record("fired a replaced row"); return }
    #expect(try f.database.pending(app: "app", identifier: "s")?.request.content.title == "replaced")
  }
}
