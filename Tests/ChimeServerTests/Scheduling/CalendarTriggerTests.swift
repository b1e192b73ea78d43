import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

@Suite(.testTimeLimit) struct CalendarTriggerTests {
  // 2027-03-27T12:00:00Z, the day before Berlin springs forward.
  static let saturdayNoon = Instant(unixMillis: 1_806_148_800_000)

  func berlin(hour: Int, minute: Int, repeats: Bool) -> Trigger {
    var c = CalendarComponents()
    c.hour = hour
    c.minute = minute
    c.timeZone = "Europe/Berlin"
    return .calendar(CalendarTrigger(components: c, repeats: repeats))
  }

  @Test(arguments: Transport.allCases) func dailyTriggerAcrossTheSpringForwardGapFiresOnceADayAtTheRightInstants(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let added = try await client.add(NotificationRequest(identifier: "night", content: NotificationContent(title: "02:30"),
                                                         trigger: berlin(hour: 2, minute: 30, repeats: true)))
    // Sunday 02:30 does not exist in Berlin (02:00 -> 03:00): it fires at 03:00 CEST = 01:00Z.
    let sunday = Instant(unixMillis: 1_806_195_600_000)  // 2027-03-28T01:00:00Z
    #expect(added.pending.nextFire == sunday)
    d.advance(seconds: Double(sunday.millis(since: d.clock.now())) / 1000)
    let first = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(first.delivered?.due == sunday)
    // Monday 02:30 CEST = 00:30Z: 23.5 hours later, not skipped, not doubled.
    let monday = Instant(unixMillis: 1_806_280_200_000)  // 2027-03-29T00:30:00Z
    #expect(try await client.allPending().first?.nextFire == monday)
    d.advance(seconds: Double(monday.millis(since: d.clock.now())) / 1000)
    let second = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(second.delivered?.due == monday)
  }

  func refusal(_ client: ChimeClient, _ components: CalendarComponents) async -> ChimeError? {
    let request = NotificationRequest(identifier: "never", content: NotificationContent(title: "x"),
                                      trigger: .calendar(CalendarTrigger(components: components)))
    do {
      _ = try await client.add(request)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: Transport.allCases) func impossibleDatesAreRefusedWhenAdded(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var c = CalendarComponents()
    c.month = 2
    c.day = 30
    #expect(await refusal(client, c)?.reason == "NOTIFICATION_INVALID_NO_DATE")
    c.day = nil
    c.month = 13
    let error = await refusal(client, c)
    #expect(error?.code == .invalidArgument)
    #expect(error?.field.hasSuffix("components.month") == true, "\(String(describing: error))")
    #expect(try await client.allPending().isEmpty)
  }

  @Test(arguments: Transport.allCases) func nextTriggerDatesPreviewsThroughTheDaemon(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let dates = try await d.client(over: transport).nextTriggerDates(berlin(hour: 2, minute: 30, repeats: true), count: 3)
    #expect(dates.map(\.instant.unixMillis) == [1_806_195_600_000, 1_806_280_200_000, 1_806_366_600_000])
    #expect(dates[0].dstNote != nil)
    #expect(dates[1].dstNote == nil)
  }
}

@Suite(.testTimeLimit) struct ClockJumpTests {
  // 2027-10-30T12:00:00Z, the day before Berlin falls back (03:00 CEST -> 02:00 CET).
  static let saturdayNoon = Instant(unixMillis: 1_824_897_600_000)

  func berlin(_ hour: Int, _ minute: Int, overlap: DSTOverlapPolicy) -> Trigger {
    var c = CalendarComponents()
    c.hour = hour
    c.minute = minute
    c.timeZone = "Europe/Berlin"
    return .calendar(CalendarTrigger(components: c, repeats: true, dstOverlap: overlap))
  }

  @Test(arguments: Transport.allCases) func fallBackFiresOnceByDefaultAndTwiceWhenAskedFor(over transport: Transport) async throws {
    for (overlap, expected) in [(DSTOverlapPolicy.first, [1_824_942_600_000] as [Int64]),
                                (.both, [1_824_942_600_000, 1_824_946_200_000])] {
      let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
      let client = try d.client(over: transport)
      _ = try await client.add(NotificationRequest(identifier: "night", content: NotificationContent(title: "02:30"),
                                                   trigger: berlin(2, 30, overlap: overlap)))
      // 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET) on 2027-10-31.
      var events = client.subscribe().makeAsyncIterator()
      _ = try await nextEvent(&events) { $0.kind == .subscribed }
      var dues: [Int64] = []
      for due in expected {
        #expect(try await client.allPending().first?.nextFire.unixMillis == due, "\(overlap)")
        d.advance(seconds: Double(due - d.clock.now().unixMillis) / 1000)
        let e = try await nextEvent(&events) { $0.kind == .delivered }
        dues.append(e.delivered!.due.unixMillis)
      }
      #expect(dues == expected, "\(overlap)")
      #expect(try await client.allDelivered().count == 1)  // one delivered entry per identifier
      // The next one is Monday 02:30 CET (01:30Z), never a second Sunday fire.
      #expect(try await client.allPending().first?.nextFire == Instant(unixMillis: 1_825_032_600_000))
    }
  }

  @Test(arguments: Transport.allCases) func clockSetBackDoesNotFireAgainAndSetForwardFiresOnceMarkedMissed(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let start = d.clock.now()
    _ = try await client.add(.tea("hourly", in: 3600, repeats: true))
    d.advance(seconds: 3600)
    let first = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(first.delivered?.due == start.adding(seconds: 3600))
    // The clock is set back an hour and a half: nothing fires again for an occurrence that
    // already fired, and the next fire stays where it was.
    d.advance(seconds: -5400)
    #expect(try await client.allPending().first?.nextFire == start.adding(seconds: 7200))
    d.advance(seconds: 5399)
    #expect(try await client.allDelivered().first?.due == start.adding(seconds: 3600))
    // Set forward by five hours: one delivery, marked missed, advanced past the gap.
    d.advance(seconds: 5 * 3600)
    let jumped = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(jumped.delivered?.missed == true)
    #expect(jumped.delivered?.due == start.adding(seconds: 7200))
    #expect(try await client.allPending().first?.nextFire == start.adding(seconds: 6 * 3600))
  }
}
