import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// RFC 5545 recurrence rules through the daemon: added over each transport, kept as given,
/// planned with RFC 5545's DST reading, excluded occurrences skipped, and the request gone
/// after the rule's last occurrence.
@Suite(.testTimeLimit) struct RecurrenceTriggerTests {
  // 2027-03-27T12:00:00Z, the day before Berlin springs forward.
  static let saturdayNoon = Instant(unixMillis: 1_806_148_800_000)

  static func rule(_ text: String, start: String = "2027-03-27T02:30", exclusions: [String] = []) throws -> Trigger {
    .recurrence(try Recurrence(rule: text, start: start, timeZone: "Europe/Berlin", exclusions: exclusions))
  }

  @Test(arguments: Transport.allCases) func firesAcrossTheGapSkipsExclusionsAndEndsAfterCount(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let trigger = try Self.rule("FREQ=DAILY;COUNT=4", exclusions: ["2027-03-29T02:30"])
    let added = try await client.add(NotificationRequest(identifier: "night", content: NotificationContent(title: "02:30"), trigger: trigger))
    // Saturday 02:30 has passed. Sunday 02:30 is in the gap: read with +01:00, 01:30Z (03:30 CEST).
    let sunday = Instant(unixMillis: 1_806_197_400_000)  // 2027-03-28T01:30:00Z
    #expect(added.pending.nextFire == sunday)
    // Kept exactly as given.
    let pending = try #require(try await client.allPending().first)
    guard case .recurrence(let kept)? = pending.request.trigger else {
      Issue.record("the trigger came back as \(String(describing: pending.request.trigger))")
      return
    }
    #expect(kept.ruleText == "FREQ=DAILY;COUNT=4" && kept.startText == "2027-03-27T02:30" && kept.timeZone == "Europe/Berlin")
    #expect(kept.exclusionTexts == ["2027-03-29T02:30"])
    d.advance(seconds: Double(sunday.millis(since: d.clock.now())) / 1000)
    let first = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(first.delivered?.due == sunday)
    // Monday is excluded; Tuesday 02:30 CEST is the fourth and last occurrence.
    let tuesday = Instant(unixMillis: 1_806_366_600_000)  // 2027-03-30T00:30:00Z
    #expect(try await client.allPending().first?.nextFire == tuesday)
    d.advance(seconds: Double(tuesday.millis(since: d.clock.now())) / 1000)
    let last = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(last.delivered?.due == tuesday)
    #expect(try await client.allPending().isEmpty)
  }

  func refusal(_ client: ChimeClient, _ trigger: Trigger) async -> ChimeError? {
    do {
      _ = try await client.add(NotificationRequest(identifier: "r", content: NotificationContent(title: "x"), trigger: trigger))
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: Transport.allCases) func rulesThatNeverFireOrHaveEndedAreRefused(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let client = try d.client(over: transport)
    let never = await refusal(client, try Self.rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"))
    #expect(never?.reason == "NOTIFICATION_INVALID_NO_DATE" && never?.field == "request.trigger.recurrence", "\(String(describing: never))")
    let ended = await refusal(client, try Self.rule("FREQ=DAILY;COUNT=1"))
    #expect(ended?.reason == "NOTIFICATION_INVALID_NO_DATE", "\(String(describing: ended))")
    let zone = await refusal(client, .recurrence(try Recurrence(rule: "FREQ=DAILY", start: "2027-04-01T09:00", timeZone: "Mars/Olympus")))
    #expect(zone?.reason == "INVALID_TIME_ZONE", "\(String(describing: zone))")
    #expect(try await client.allPending().isEmpty)
  }

  @Test(arguments: Transport.allCases) func aRuleTheDaemonCannotReadIsRefusedNamingThePart(over transport: Transport) async throws {
    // A peer may send any text: the rule is parsed as the request is decoded.
    var recurrence = try Recurrence(rule: "FREQ=DAILY", start: "2027-04-01T09:00", timeZone: "Europe/Berlin")
    recurrence.ruleText = "FREQ=DAILY;BYSETPOS=0;BYHOUR=9"
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let error = await refusal(try d.client(over: transport), .recurrence(recurrence))
    #expect(error?.reason == "INVALID_RECURRENCE_RULE", "\(String(describing: error))")
    #expect(error?.message.contains("BYSETPOS=0") == true)
    #expect(error?.field == "request.trigger.recurrence.rule", "\(String(describing: error))")
  }

  @Test(arguments: Transport.allCases) func aRepeatingIntervalWithACountEndsAfterItsLastFire(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let trigger = Trigger.timeInterval(TimeIntervalTrigger(seconds: 60, repeats: true, end: RepeatEnd(count: 2)))
    _ = try await client.add(NotificationRequest(identifier: "twice", content: NotificationContent(title: "2x"), trigger: trigger))
    #expect(try await client.allPending().first?.request.trigger == trigger)
    d.advance(seconds: 60)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(try await client.allPending().count == 1)
    d.advance(seconds: 60)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    // The last fire says so: the request left the pending list because it ended.
    let finished = try await nextEvent(&events) { $0.kind != .badgeChanged }
    #expect(finished.kind == .pendingFinished && finished.identifiers == ["twice"], "\(finished)")
    #expect(try await client.allPending().isEmpty)
  }

  @Test(arguments: Transport.allCases) func aOneShotFireIsNotAFinishedRepeatingRequest(over transport: Transport) async throws {
    let d = try InProcessDaemon(clock: ManualWallClock(Self.saturdayNoon))
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(NotificationRequest(identifier: "once", content: NotificationContent(title: "1x"),
                                                 trigger: .timeInterval(TimeIntervalTrigger(seconds: 60))))
    _ = try await client.add(NotificationRequest(identifier: "later", content: NotificationContent(title: "later"),
                                                 trigger: .timeInterval(TimeIntervalTrigger(seconds: 120))))
    d.advance(seconds: 60)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    d.advance(seconds: 60)
    // The next event after the one-shot's delivery is the other one's: no pending-finished.
    let next = try await nextEvent(&events) { $0.kind != .badgeChanged && $0.kind != .pendingAdded }
    #expect(next.kind == .delivered && next.identifiers == ["later"], "\(next)")
  }
}
