import ChimeTestSupport
import ChimeCore
import ChimeWire
import Testing

/// Every message survives encode then decode, with all fields set and with all optional ones unset.
@Suite struct WireCodecRoundTripTests {
  static let requests: [NotificationRequest] = {
    var timeInterval = FullValues.fullRequest()
    timeInterval.trigger = .timeInterval(TimeIntervalTrigger(seconds: 3600.5, repeats: true, end: RepeatEnd(count: 3)))
    timeInterval.missedFire = MissedFirePolicy(action: .skip)
    var oneShot = FullValues.minimalRequest
    oneShot.trigger = .timeInterval(TimeIntervalTrigger(seconds: 5))
    var floatingCalendar = FullValues.minimalRequest
    var components = CalendarComponents()
    components.hour = 8
    floatingCalendar.trigger = .calendar(CalendarTrigger(components: components))
    var workingDays = FullValues.minimalRequest
    var weekdays = CalendarComponents()
    weekdays.weekdays = [2, 3, 4, 5, 6]
    weekdays.hour = 9
    workingDays.trigger = .calendar(CalendarTrigger(components: weekdays, repeats: true,
                                                    end: RepeatEnd(until: Instant(unixMillis: 1_900_000_000_000), count: 5)))
    var recurrence = FullValues.minimalRequest
    recurrence.trigger = .recurrence(try! Recurrence(rule: "freq=monthly;byday=-1fr", start: "2026-12-01T17:00", timeZone: "Europe/Berlin",
                                                     exclusions: ["2026-12-25T17:00", "20270129T170000"]))
    var emptySound = FullValues.minimalRequest
    emptySound.content.sound = Sound.none
    emptySound.content.badge = 3
    emptySound.content.relevanceScore = 0
    emptySound.missedFire = MissedFirePolicy(action: .deliver, maxLatenessSeconds: 1)
    return [FullValues.fullRequest(), FullValues.minimalRequest, timeInterval, oneShot, floatingCalendar, workingDays, recurrence, emptySound]
  }()

  @Test(arguments: requests)
  func addRequest(_ request: NotificationRequest) throws {
    #expect(try WireCodec.decodeAddRequest(WireCodec.encodeAddRequest(request)) == request)
  }

  @Test func everyInterruptionLevelAndSoundKind() throws {
    for level in InterruptionLevel.allCases {
      for kind: Sound.Kind in [.none, .default, .named, .defaultCritical, .criticalNamed] {
        var r = FullValues.minimalRequest
        r.content.interruptionLevel = level
        r.content.sound = Sound(kind: kind, name: kind == .named ? "a.wav" : "")
        #expect(try WireCodec.decodeAddRequest(WireCodec.encodeAddRequest(r)) == r)
      }
    }
  }

  @Test func addResponse() throws {
    let full = AddResult(pending: FullValues.fullPending(), replaced: true, delivered: FullValues.fullDelivered())
    let minimal = AddResult(pending: FullValues.minimalPending, replaced: false)
    for result in [full, minimal] {
      #expect(try WireCodec.decodeAddResponse(WireCodec.encodeAddResponse(result)) == result)
    }
  }

  @Test func pageRequest() throws {
    for page in [PageRequest(), PageRequest(pageSize: 1000, pageToken: "opaque/token=")] {
      #expect(try WireCodec.decodePageRequest(try WireCodec.encodePageRequest(page)) == page)
    }
  }

  @Test func pageSizeOutOfRangeIsSentAsInvalidNotAsAnotherSize() throws {
    let decoded = try WireCodec.decodePageRequest(try WireCodec.encodePageRequest(PageRequest(pageSize: -1)))
    #expect(decoded.pageSize == Int(UInt32.max))
    #expect(throws: ChimeError.self) { try decoded.resolvedSize() }
  }

  @Test func getPendingResponse() throws {
    let full = Page(items: [FullValues.fullPending(identifier: "a"), FullValues.minimalPending, FullValues.fullPending(identifier: "c")], nextPageToken: "next")
    for page in [full, Page<PendingRequest>(items: [])] {
      #expect(try WireCodec.decodeGetPendingResponse(WireCodec.encodeGetPendingResponse(page)) == page)
    }
  }

  @Test func getDeliveredResponse() throws {
    let full = Page(items: [FullValues.fullDelivered(identifier: "a"), FullValues.minimalDelivered], nextPageToken: "n2")
    for page in [full, Page<DeliveredNotification>(items: [])] {
      #expect(try WireCodec.decodeGetDeliveredResponse(WireCodec.encodeGetDeliveredResponse(page)) == page)
    }
  }

  @Test func identifiersAndRemoveResponse() throws {
    for ids in [[], ["a"], ["a", "", "ß-ü", String(repeating: "z", count: 256)]] {
      #expect(try WireCodec.decodeIdentifiersRequest(WireCodec.encodeIdentifiersRequest(ids)) == ids)
      #expect(try WireCodec.decodeRemoveResponse(WireCodec.encodeRemoveResponse(ids)) == ids)
    }
  }

  @Test func empty() throws {
    #expect(WireCodec.encodeEmpty() == [])
    try WireCodec.decodeEmpty(WireCodec.encodeEmpty())
  }

  @Test func subscribeRequest() throws {
    for cursor: UInt64? in [nil, 0, 1, .max] {
      #expect(try WireCodec.decodeSubscribeRequest(WireCodec.encodeSubscribeRequest(after: cursor)) == cursor)
    }
  }

  @Test func event() throws {
    #expect(try WireCodec.decodeEvent(WireCodec.encodeEvent(FullValues.fullEvent())) == FullValues.fullEvent())
    let minimal = Event(at: Instant(unixMillis: 0), kind: .subscribed)
    #expect(try WireCodec.decodeEvent(WireCodec.encodeEvent(minimal)) == minimal)
  }

  @Test(arguments: [Event.Kind.delivered, .pendingAdded, .pendingReplaced, .pendingRemoved, .deliveredRemoved, .missedSkipped, .response, .eventsLost, .subscribed])
  func everyEventKind(_ kind: Event.Kind) throws {
    let event = Event(cursor: 1, at: Instant(unixMillis: -5), kind: kind, identifiers: ["x"])
    #expect(try WireCodec.decodeEvent(WireCodec.encodeEvent(event)) == event)
  }

  @Test func nextTriggerDatesRequest() throws {
    let full = try WireCodec.encodeNextTriggerDatesRequest(trigger: FullValues.fullRequest().trigger, after: Instant(unixMillis: 1_800_000_000_000), count: 1000)
    let a = try WireCodec.decodeNextTriggerDatesRequest(full)
    #expect(a.trigger == FullValues.fullRequest().trigger)
    #expect(a.after == Instant(unixMillis: 1_800_000_000_000))
    #expect(a.count == 1000)
    let minimal = try WireCodec.decodeNextTriggerDatesRequest(WireCodec.encodeNextTriggerDatesRequest(trigger: nil, after: nil, count: 0))
    #expect(minimal.trigger == nil)
    #expect(minimal.after == nil)
    #expect(minimal.count == 0)
    #expect(try WireCodec.decodeNextTriggerDatesRequest(WireCodec.encodeNextTriggerDatesRequest(trigger: nil, after: nil, count: -3)).count == Int(UInt32.max))
  }

  @Test func nextTriggerDatesResponse() throws {
    let dates = [
      FireDate(instant: Instant(unixMillis: 1_806_454_800_000), utcOffsetSeconds: 7200, zoneIdentifier: "Europe/Berlin", dstNote: "02:30 does not exist (DST gap); fires at 03:00 +02:00"),
      FireDate(instant: Instant(unixMillis: -1), utcOffsetSeconds: -36_000, zoneIdentifier: ""),
    ]
    for list in [dates, []] {
      #expect(try WireCodec.decodeNextTriggerDatesResponse(WireCodec.encodeNextTriggerDatesResponse(list)) == list)
    }
  }

  @Test func extremeNumbersSurvive() throws {
    var r = FullValues.minimalRequest
    r.content.badge = .max
    r.content.relevanceScore = -0.0
    r.trigger = .timeInterval(TimeIntervalTrigger(seconds: .greatestFiniteMagnitude))
    let p = PendingRequest(request: r, nextFire: Instant(unixMillis: .min), added: Instant(unixMillis: .max), fireCount: .max)
    let page = Page(items: [p])
    #expect(try WireCodec.decodeGetPendingResponse(WireCodec.encodeGetPendingResponse(page)) == page)
  }

  @Test func calendarComponentsOutsideInt32AreClampedNotCrashed() throws {
    var r = FullValues.minimalRequest
    var c = CalendarComponents()
    c.year = Int.max
    c.day = Int.min
    r.trigger = .calendar(CalendarTrigger(components: c))
    let decoded = try WireCodec.decodeAddRequest(WireCodec.encodeAddRequest(r))
    guard case .calendar(let cal)? = decoded.trigger else {
      Issue.record("calendar trigger lost")
      return
    }
    #expect(cal.components.year == Int(Int32.max))
    #expect(cal.components.day == Int(Int32.min))
  }
}
