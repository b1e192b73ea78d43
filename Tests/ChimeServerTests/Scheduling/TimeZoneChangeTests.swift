import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

@Suite(.testTimeLimit) struct TimeZoneChangeTests {
  final class MachineZone: Sendable {
    let current = Locked(Zone.named("Europe/Berlin")!)
    func set(_ name: String) { current.withLock { $0 = Zone.named(name)! } }
  }

  // 2027-06-01T04:00:00Z = 06:00 in Berlin (CEST), 00:00 in New York (EDT).
  static let start = Instant(unixMillis: 1_811_822_400_000)

  @Test(arguments: Transport.allCases) func floatingTriggersKeepTheirWallTimeWhenTheZoneChangesAndFixedOnesKeepTheirInstant(over transport: Transport) async throws {
    let zone = MachineZone()
    let d = try InProcessDaemon(clock: ManualWallClock(Self.start)) { configuration in
      configuration.hooks.timeZone = { zone.current.withLock { $0 } }
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

  /// More floating requests than one re-plan batch (256), across two apps: every one moves,
  /// each with its own event, and the fixed ones do not.
  @Test func aZoneChangeReplansEveryFloatingRequestInBatches() async throws {
    let zone = MachineZone()
    let d = try InProcessDaemon(clock: ManualWallClock(Self.start)) { configuration in
      configuration.hooks.timeZone = { zone.current.withLock { $0 } }
    }
    var eight = CalendarComponents()
    eight.hour = 8
    let apps = ["org.example.a", "org.example.b"]
    let perApp = 300
    for app in apps {
      let client = try d.client(app: app, over: .inProcess)
      for i in 0..<perApp {
        var components = eight
        if i % 10 == 0 { components.timeZone = "Europe/Berlin" }  // every tenth is fixed
        _ = try await client.add(NotificationRequest(identifier: "r\(i)", content: NotificationContent(title: "08:00"),
                                                     trigger: .calendar(CalendarTrigger(components: components, repeats: true))))
      }
    }
    let watcher = try d.client(app: apps[1], over: .inProcess)
    var events = watcher.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    zone.set("America/New_York")
    d.daemon.timeZoneDidChange()
    var replanned = Set<String>()
    while replanned.count < perApp - perApp / 10 {
      let event = try await nextEvent(&events) { $0.kind == .pendingReplaced }
      replanned.formUnion(event.identifiers)
    }
    #expect(replanned.allSatisfy { Int($0.dropFirst())! % 10 != 0 })
    for app in apps {
      let pending = try await d.client(app: app, over: .inProcess).allPending()
      #expect(pending.count == perApp)
      for request in pending {
        let fixed = Int(request.request.identifier.dropFirst())! % 10 == 0
        // 08:00 Berlin = 06:00Z today; 08:00 New York = 12:00Z today.
        #expect(request.nextFire == Self.start.adding(seconds: fixed ? 2 * 3600 : 8 * 3600), "\(app) \(request.request.identifier)")
      }
    }
  }
}
