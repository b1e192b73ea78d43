import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Foundation
import Testing

/// Do Not Disturb through the whole daemon with a manual clock: quiet deliveries, what breaks
/// through, until-instants, a schedule window on a DST night, refusals and restarts.
@Suite(.testTimeLimit) struct DoNotDisturbServiceTests {
  static let utc = Zone.named("UTC")!

  func expectRefused(_ reason: String, _ body: () async throws -> Void) async {
    do {
      try await body()
      Issue.record("expected \(reason)")
    } catch let error as ChimeError {
      #expect(error.reason == reason && error.code == .invalidArgument, "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  static func instant(_ iso: String) -> Instant { Instant(try! Date(iso, strategy: .iso8601)) }

  /// A daemon whose command presenter appends each shown notification's JSON to `out`.
  static func presentingDaemon(_ out: String, zone: Zone = utc, clock: ManualWallClock = ManualWallClock()) throws -> InProcessDaemon {
    try InProcessDaemon(clock: clock) { configuration in
      configuration.collaborators.presentation.presenters = [.command]
      configuration.collaborators.presentation.command = ["/bin/sh", "-c", "cat >> \"$0\" && echo >> \"$0\"", out]
      configuration.hooks.timeZone = { zone }
    }
  }

  static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  @Test(arguments: Transport.allCases) func aFireDuringManualDNDIsQuietAndACriticalOneIsPresented(over transport: Transport) async throws {
    let dir = TemporaryDirectory()
    let out = dir.file("shown.jsonl")
    let d = try Self.presentingDaemon(out)
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    _ = try await app.requestAuthorization([.alert, .sound, .badge, .criticalAlert])
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    let on = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(on.status == DoNotDisturbStatus(active: true, source: .manual, until: nil, nextStart: nil))
    var quiet = NotificationRequest.tea("quiet", in: 10)
    quiet.content.badge = 2
    _ = try await app.add(quiet)
    var critical = NotificationRequest.tea("critical", in: 20)
    critical.content.interruptionLevel = .critical
    _ = try await app.add(critical)

    d.advance(seconds: 10)
    let first = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(first.identifiers == ["quiet"])
    #expect(first.delivered?.quiet == true)
    #expect(first.note.contains("do not disturb"), "\(first.note)")
    // The badge still applies.
    _ = try await nextEvent(&events) { $0.kind == .badgeChanged && $0.badgeCount == 2 }
    #expect(try await app.delivered().items.first { $0.request.identifier == "quiet" }?.quiet == true)

    d.advance(seconds: 10)
    let second = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(second.identifiers == ["critical"])
    #expect(second.delivered?.quiet == false)
    #expect(!second.note.contains("do not disturb"), "\(second.note)")
    // The critical one is shown; the quiet one, delivered before it, never was.
    try #require(pollUntil(within: 10) { Self.read(out).contains("\"critical\"") })
    #expect(!Self.read(out).contains("\"quiet\""))
    #expect(Self.read(out).split(separator: "\n").count == 1)
  }

  @Test(arguments: Transport.allCases) func dndUntilAnInstantEndsThen(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    let until = d.clock.now().adding(seconds: 60)
    let set = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: until)))
    #expect(set.status == DoNotDisturbStatus(active: true, source: .manual, until: until, nextStart: nil))
    #expect(set.setting.manual?.until == until)
    // A change with nothing in it reads the state.
    #expect(try await user.setDoNotDisturb(DoNotDisturbChange()) == set)

    d.advance(seconds: 59)
    let during = try await app.add(.tea("during", in: nil))
    #expect(during.delivered?.quiet == true)
    d.advance(seconds: 1)
    let after = try await app.add(.tea("after", in: nil))
    #expect(after.delivered?.quiet == false)
    #expect(try await user.doNotDisturb().status == .inactive)
    // Off again: a later delivery is shown as usual.
    d.advance(seconds: 60)
    #expect(try await app.add(.tea("later", in: nil)).delivered?.quiet == false)
  }

  @Test(arguments: Transport.allCases) func timeSensitiveBreaksThroughOnlyWithItsPermission(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let plain = try d.client(app: "org.example.plain", over: transport)
    let urgent = try d.client(app: "org.example.urgent", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    _ = try await urgent.requestAuthorization([.alert, .timeSensitive])
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    var request = NotificationRequest.tea("u", in: nil)
    request.content.interruptionLevel = .timeSensitive
    #expect(try await urgent.add(request).delivered?.quiet == false)
    #expect(try await plain.add(request).delivered?.quiet == true)
  }

  /// Europe/Berlin springs forward at 02:00 on 2027-03-28 (01:00Z): a window from 02:30 starts
  /// at the gap's end, 03:00 +02:00.
  @Test(arguments: Transport.allCases) func aScheduleWindowOnADSTNight(over transport: Transport) async throws {
    let clock = ManualWallClock(Self.instant("2027-03-27T12:00:00Z"))
    let berlin = try #require(Zone.named("Europe/Berlin"))
    let d = try InProcessDaemon(clock: clock) { $0.hooks.timeZone = { berlin } }
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    let set = try await user.setDoNotDisturb(DoNotDisturbChange(schedule: .set(try DoNotDisturbSchedule.parse("02:30-06:00"))))
    #expect(set.status == DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: Self.instant("2027-03-28T01:00:00Z")))
    #expect(set.timeZone == "Europe/Berlin")

    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    // Due one second before the window and one second into it (scheduled fires).
    _ = try await app.add(.tea("before", in: 13 * 3600 - 1))
    _ = try await app.add(.tea("inside", in: 13 * 3600 + 1))
    d.advance(seconds: 13 * 3600 - 1)
    let before = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(before.identifiers == ["before"] && before.delivered?.quiet == false)
    d.advance(seconds: 2)
    let inside = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(inside.identifiers == ["inside"] && inside.delivered?.quiet == true)
    #expect(inside.note.contains(DeliveryShape.doNotDisturbNote(.schedule)), "\(inside.note)")
    let status = try await user.doNotDisturb().status
    #expect(status == DoNotDisturbStatus(active: true, source: .schedule, until: Self.instant("2027-03-28T04:00:00Z"), nextStart: nil))
    // 06:00 +02:00 ends it.
    clock.set(Self.instant("2027-03-28T04:00:00Z"))
    #expect(try await app.add(.tea("morning", in: nil)).delivered?.quiet == false)
  }

  @Test(arguments: Transport.allCases) func invalidInputIsRefusedWithAReason(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let user = try d.client(app: "chime.cli", over: transport)
    await expectRefused("DND_UNTIL_IN_PAST") {
      _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: d.clock.now())))
    }
    for (schedule, reason) in [(DoNotDisturbSchedule(startMinute: 1440, endMinute: 60), "INVALID_DND_SCHEDULE"),
                               (DoNotDisturbSchedule(startMinute: 60, endMinute: 60), "INVALID_DND_SCHEDULE"),
                               (DoNotDisturbSchedule(startMinute: 60, endMinute: 120, days: .init(rawValue: 0x80)), "INVALID_DND_DAYS")] {
      await expectRefused(reason) { _ = try await user.setDoNotDisturb(DoNotDisturbChange(schedule: .set(schedule))) }
    }
    // Nothing was stored.
    #expect(try await user.doNotDisturb().setting == .off)
  }

  @Test func theSettingSurvivesARestart() async throws {
    let d = try InProcessDaemon()
    let user = try d.client(app: "chime.cli")
    let schedule = try DoNotDisturbSchedule.parse("22:00-07:00", days: "mon-fri")
    let until = d.clock.now().adding(seconds: 3600)
    let before = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: until), schedule: .set(schedule)))
    #expect(before.setting == DoNotDisturb(manual: .init(until: until), schedule: schedule))

    try d.restart()
    let again = try d.client(app: "chime.cli")
    #expect(try await again.doNotDisturb() == before)
    #expect(try await d.client(app: "org.example.tea").add(.tea("t", in: nil)).delivered?.quiet == true)
    // Clearing is kept too.
    _ = try await again.setDoNotDisturb(DoNotDisturbChange(manual: .off, schedule: .clear))
    try d.restart()
    #expect(try await d.client(app: "chime.cli").doNotDisturb().setting == .off)
  }
}
