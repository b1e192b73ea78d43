import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct TimeZoneChangeTests {
  final class Zone: Sendable {
    let current = Mutex(TimeZone(identifier: "Europe/Berlin")!)
    func set(_ name: String) { current.withLock { $0 = TimeZone(identifier: name)! } }
  }

  // 2027-06-01T04:00:00Z = 06:00 in Berlin (CEST), 00:00 in New York (EDT).
  static let start = Instant(unixMillis: 1_811_822_400_000)

  @Test(arguments: Transport.allCases) func floatingTriggersKeepTheirWallTimeWhenTheZoneChangesAndFixedOnesKeepTheirInstant(over transport: Transport) async throws {
    let zone = Zone()
    let d = try InProcessDaemon(clock: ManualWallClock(Self.start)) { configuration in
      configuration.timeZone = { zone.current.withLock { $0 } }
    }
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var eight = CalendarComponents()
    eight.hour = 8
    let floating = try await client.add(NotificationRequest(identifier: "floating", content: NotificationContent(title: "08:00 local"),
                                                            trigger: .calendar(CalendarTrigger(components: eight, repeats: true))))
    eight.timeZone = "Europe/Berlin"
    let fixed = try await client.add(NotificationRequest(identifier: "fixed", content: NotificationContent(title: "08:00 Berlin"),
                                                         trigger: .calendar(CalendarTrigger(components: eight, repeats: true))))
    // Both 08:00 Berlin = 06:00Z today.
    #expect(floating.pending.nextFire == Self.start.adding(seconds: 2 * 3600))
    #expect(fixed.pending.nextFire == Self.start.adding(seconds: 2 * 3600))

    zone.set("America/New_York")
    d.daemon.timeZoneDidChange()
    let replanned = try await nextEvent(&events) { $0.kind == .pendingReplaced }
    #expect(replanned.identifiers == ["floating"])
    #expect(replanned.note.contains("America/New_York"))
    let pending = Dictionary(uniqueKeysWithValues: try await client.allPending().map { ($0.request.identifier, $0.nextFire) })
    // The floating one now fires at 08:00 New York = 12:00Z; the fixed one has not moved.
    #expect(pending["floating"] == Self.start.adding(seconds: 8 * 3600))
    #expect(pending["fixed"] == Self.start.adding(seconds: 2 * 3600))

    // And it fires there.
    d.advance(seconds: 2 * 3600)
    #expect(try await nextEvent(&events) { $0.kind == .delivered }.identifiers == ["fixed"])
    d.advance(seconds: 6 * 3600)
    let e = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(e.identifiers == ["floating"])
    #expect(e.delivered?.due == Self.start.adding(seconds: 8 * 3600))
  }
}
