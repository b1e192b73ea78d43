import ChimeCore
import ChimeTestSupport
import ChimeWire
import Testing

@testable import ChimeDBus
@testable import ChimeServer

/// A D-Bus caller's `a{sv}` arguments become the ChimeCore values the service takes, and
/// anything D-Bus types cannot rule out (a key's value type, an unknown key, two trigger
/// kinds) is refused with a reason naming the key.
@Suite(.testTimeLimit) struct DBusArgumentsTests {
  typealias Pairs = [(String, BusValue)]
  let empty = BusValue.vardict([])

  func caught(_ body: () throws -> Void) -> ChimeError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ChimeError
    }
  }

  @Test func contentKeysBecomeTheContent() throws {
    let attachment: Pairs = [
      ("path", .string("/tmp/leaf.png")), ("identifier", .string("leaf")), ("type-hint", .string("public.png")),
      ("clip", .structure([.double(0), .double(0.25), .double(1), .double(0.5)])), ("thumbnail-time", .int32(2)),
      ("thumbnail-hidden", .boolean(true)),
    ]
    let content = BusValue.vardict([
      ("title", .string("Tea")), ("subtitle", .string("Green")), ("body", .string("Steeped")), ("badge", .int32(3)),
      ("sound", .string("ding.caf")), ("critical", .boolean(true)), ("volume", .double(0.5)), ("category", .string("brew")),
      ("thread", .string("pot")), ("interruption-level", .string("time-sensitive")), ("relevance", .double(0.75)),
      ("user-info", .string("{\"a\":1}")), ("attachments", .vardicts([attachment])),
    ])
    let request = try DBusArguments.request(identifier: "tea", content: content, trigger: empty, options: empty)
    let c = request.content
    #expect(request.identifier == "tea" && request.trigger == nil)
    #expect(c.title == "Tea" && c.subtitle == "Green" && c.body == "Steeped" && c.badge == 3)
    #expect(c.sound == Sound(kind: .criticalNamed, name: "ding.caf", volume: 0.5))
    #expect(c.categoryIdentifier == "brew" && c.threadIdentifier == "pot" && c.interruptionLevel == .timeSensitive)
    #expect(c.relevanceScore == 0.75 && c.userInfoJSON == "{\"a\":1}")
    let a = try #require(c.attachments.first)
    #expect(a.path == "/tmp/leaf.png" && a.identifier == "leaf" && a.options.typeHint == "public.png")
    #expect(a.options.thumbnailClippingRect == ClipRect(x: 0, y: 0.25, width: 1, height: 0.5))
    #expect(a.options.thumbnailTime == 2 && a.options.thumbnailHidden)
  }

  @Test func soundDefaultAndCritical() throws {
    func sound(_ pairs: Pairs) throws -> Sound? {
      try DBusArguments.content(.vardict([("title", .string("t"))] + pairs)).sound
    }
    #expect(try sound([]) == nil)
    #expect(try sound([("sound", .string("default"))]) == .default)
    #expect(try sound([("sound", .string("default")), ("critical", .boolean(true))]) == Sound(kind: .defaultCritical))
    #expect(try sound([("critical", .boolean(true)), ("volume", .double(0.2))]) == Sound(kind: .defaultCritical, volume: 0.2))
    #expect(try sound([("sound", .string("bell.wav"))]) == .named("bell.wav"))
  }

  @Test func triggers() throws {
    #expect(try DBusArguments.trigger(empty) == nil)
    #expect(try DBusArguments.trigger(.vardict([("interval", .double(90)), ("repeats", .boolean(true))]))
      == .timeInterval(TimeIntervalTrigger(seconds: 90, repeats: true)))
    // A whole number of seconds may come as any integer type.
    #expect(try DBusArguments.trigger(.vardict([("interval", .unsigned(60, type: "u"))])) == .timeInterval(TimeIntervalTrigger(seconds: 60)))
    let calendar = BusValue.vardict([
      ("calendar", .vardict([("hour", .int32(9)), ("minute", .int32(30)), ("weekday", .int32(2)), ("weekday-ordinal", .int32(-1)),
                             ("time-zone", .string("Europe/Paris")), ("dst-gap", .string("skip")), ("dst-overlap", .string("both"))])),
      ("repeats", .boolean(true)),
    ])
    guard case .calendar(let c)? = try DBusArguments.trigger(calendar) else { Issue.record("not a calendar trigger"); return }
    #expect(c.components.hour == 9 && c.components.minute == 30 && c.components.weekday == 2 && c.components.weekdayOrdinal == -1)
    #expect(c.components.timeZone == "Europe/Paris" && c.repeats && c.dstGap == .skip && c.dstOverlap == .both)
    let both = caught { _ = try DBusArguments.trigger(.vardict([("interval", .double(60)), ("calendar", .vardict([("hour", .int32(1))]))])) }
    #expect(both?.reason == "INVALID_ARGUMENT" && both?.field == "trigger")
    let lone = caught { _ = try DBusArguments.trigger(.vardict([("repeats", .boolean(true))])) }
    #expect(lone?.field == "trigger.repeats")
  }

  @Test func weekdaySetsEndsAndRecurrenceRules() throws {
    let workdays = BusValue.vardict([
      ("calendar", .vardict([("hour", .int32(9)), ("weekdays", .array(element: "i", [2, 3, 4, 5, 6].map { .int32($0) }))])),
      ("repeats", .boolean(true)), ("count", .uint32(10)), ("until", .int64(1_900_000_000_000)),
    ])
    guard case .calendar(let c)? = try DBusArguments.trigger(workdays) else { Issue.record("not a calendar trigger"); return }
    #expect(c.components.weekdays == [2, 3, 4, 5, 6] && c.components.hour == 9)
    #expect(c.end == RepeatEnd(until: Instant(unixMillis: 1_900_000_000_000), count: 10))
    let rule = BusValue.vardict([("recurrence", .vardict([
      ("rule", .string("FREQ=MONTHLY;BYDAY=-1FR")), ("start", .string("2026-12-01T17:00")), ("time-zone", .string("Europe/Berlin")),
      ("exclude", .strings(["2026-12-25T17:00"])),
    ]))])
    guard case .recurrence(let r)? = try DBusArguments.trigger(rule) else { Issue.record("not a recurrence"); return }
    #expect(r.ruleText == "FREQ=MONTHLY;BYDAY=-1FR" && r.startText == "2026-12-01T17:00" && r.timeZone == "Europe/Berlin")
    #expect(r.exclusionTexts == ["2026-12-25T17:00"])
    // Listed back with the keys Add takes.
    let listed = DBusRecords.trigger(.recurrence(r)).map(\.0)
    #expect(listed == ["recurrence", "repeats"])
    #expect(DBusRecords.trigger(.calendar(c)).map(\.0) == ["calendar", "repeats", "until", "count"])

    let badRule = caught {
      _ = try DBusArguments.trigger(.vardict([("recurrence", .vardict([("rule", .string("FREQ=DAILY;BYSETPOS=0")), ("start", .string("2026-12-01T17:00"))]))]))
    }
    #expect(badRule?.reason == "INVALID_RECURRENCE_RULE", "\(String(describing: badRule))")
    let badDay = caught {
      _ = try DBusArguments.trigger(.vardict([("calendar", .vardict([("weekdays", .array(element: "i", [.int32(8)]))]))]))
    }
    #expect(badDay?.field == "trigger.calendar.weekdays", "\(String(describing: badDay))")
    let endWithoutRepeats = caught { _ = try DBusArguments.trigger(.vardict([("interval", .double(60)), ("count", .uint32(2))])) }
    #expect(endWithoutRepeats?.field == "trigger.count", "\(String(describing: endWithoutRepeats))")
    let two = caught {
      _ = try DBusArguments.trigger(.vardict([("interval", .double(60)), ("recurrence", .vardict([("rule", .string("FREQ=DAILY")), ("start", .string("2026-12-01T17:00"))]))]))
    }
    #expect(two?.field == "trigger")
  }

  @Test func unknownKeysWrongTypesAndRangesAreRefusedByKey() {
    let unknown = caught { _ = try DBusArguments.content(.vardict([("title", .string("t")), ("tilte", .string("t"))])) }
    #expect(unknown?.reason == "INVALID_ARGUMENT" && unknown?.field == "content.tilte", "\(String(describing: unknown))")
    let wrong = caught { _ = try DBusArguments.content(.vardict([("badge", .string("3"))])) }
    #expect(wrong?.reason == "INVALID_ARGUMENT" && wrong?.field == "content.badge" && wrong?.message.contains("not s") == true)
    let range = caught { _ = try DBusArguments.content(.vardict([("badge", .int64(1 << 40))])) }
    #expect(range?.field == "content.badge")
    let nested = caught {
      _ = try DBusArguments.trigger(.vardict([("calendar", .vardict([("hour", .int32(9)), ("hours", .int32(1))]))]))
    }
    #expect(nested?.field == "trigger.calendar.hours")
    let attachment = caught { _ = try DBusArguments.content(.vardict([("attachments", .vardicts([[("identifier", .string("x"))]]))])) }
    #expect(attachment?.reason == "ATTACHMENT_INVALID_URL" && attachment?.field == "content.attachments[0].path")
    let choice = caught { _ = try DBusArguments.content(.vardict([("interruption-level", .string("loud"))])) }
    #expect(choice?.field == "content.interruption-level" && choice?.message.contains("time-sensitive") == true)
    let notDict = caught { _ = try DBusArguments.content(.strings(["title"])) }
    #expect(notDict?.reason == "INVALID_ARGUMENT")
  }

  /// `manual-until` goes only with `manual` true: with `manual` false it is refused, not dropped.
  @Test func aDoNotDisturbUntilGoesOnlyWithManualOn() throws {
    let until: BusValue = .int64(4_102_444_800_000)
    let on = try DBusArguments.doNotDisturb(.vardict([("manual", .boolean(true)), ("manual-until", until)]))
    #expect(on.manual == .on(until: Instant(unixMillis: 4_102_444_800_000)))
    for change: Pairs in [[("manual-until", until)], [("manual", .boolean(false)), ("manual-until", until)]] {
      let error = caught { _ = try DBusArguments.doNotDisturb(.vardict(change)) }
      #expect(error?.reason == "INVALID_ARGUMENT" && error?.field == "change.manual-until", "\(change): \(String(describing: error))")
    }
  }

  @Test func aKeyGivenTwiceIsRefused() {
    let twice = BusValue.array(element: "{sv}", [.entry(.string("title"), .variant(.string("a"))), .entry(.string("title"), .variant(.string("b")))])
    let error = caught { _ = try DBusArguments.content(twice) }
    #expect(error?.field == "content.title" && error?.message.contains("twice") == true)
  }

  @Test func categoriesAuthorizationResponsesAndPushes() throws {
    let categories = try DBusArguments.categories(.vardicts([[
      ("identifier", .string("invite")),
      ("actions", .vardicts([[("identifier", .string("reply")), ("title", .string("Reply")), ("options", .strings(["foreground"])),
                              ("text-input", .vardict([("button-title", .string("Send")), ("placeholder", .string("…"))]))]])),
      ("options", .strings(["custom-dismiss-action"])), ("summary-format", .string("%u more")),
    ]]))
    let category = try #require(categories.first)
    #expect(category.identifier == "invite" && category.options == .customDismissAction && category.summaryFormat == "%u more")
    #expect(category.actions.first?.textInput == NotificationAction.TextInput(buttonTitle: "Send", placeholder: "…"))
    #expect(category.actions.first?.options == .foreground)
    #expect(try DBusArguments.authorization(["alert", "sound", "time-sensitive"]) == [.alert, .sound, .timeSensitive])
    #expect(caught { _ = try DBusArguments.authorization(["loud"]) }?.field == "options")
    let response = try DBusArguments.response(notification: "n", action: "reply", options: .vardict([("user-text", .string("ok"))]))
    #expect(response == NotificationResponse(notificationIdentifier: "n", actionIdentifier: "reply", userText: "ok"))
    let push = try DBusArguments.push(payload: "{}", options: .vardict([("identifier", .string("p"))]))
    #expect(push == PushSubmission(payload: Array("{}".utf8), identifier: "p"))
    let preview = try DBusArguments.nextTriggerDates(trigger: .vardict([("interval", .double(60))]),
                                                     options: .vardict([("count", .unsigned(3, type: "u")), ("after", .int64(1000))]))
    #expect(preview.count == 3 && preview.after == Instant(unixMillis: 1000))
  }

  /// What a listing answers reads back as the request that was added.
  @Test func listedRecordsReadBackAsTheRequest() throws {
    var content = NotificationContent(title: "Tea", subtitle: "s", body: "b")
    content.badge = 4
    content.sound = Sound(kind: .criticalNamed, name: "x.wav", volume: 0.3)
    content.interruptionLevel = .passive
    content.userInfoJSON = "{}"
    var options = AttachmentOptions()
    options.thumbnailClippingRect = ClipRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4)
    content.attachments = [Attachment(identifier: "a", path: "/tmp/a.png", options: options)]
    var components = CalendarComponents()
    components.day = 1
    components.hour = 8
    components.timeZone = "UTC"
    let request = NotificationRequest(identifier: "r", content: content,
                                      trigger: .calendar(CalendarTrigger(components: components, repeats: true, dstGap: .skip)))
    let pairs = DBusRecords.pending(PendingRequest(request: request, nextFire: Instant(unixMillis: 5), added: Instant(unixMillis: 1)))
    #expect(pairs.contains { $0.0 == "next-fire" && $0.1 == .int64(5) })
    let keysOf: Set<String> = ["title", "subtitle", "body", "badge", "sound", "critical", "volume", "interruption-level", "user-info", "attachments"]
    let read = try DBusArguments.request(identifier: "r", content: .vardict(pairs.filter { keysOf.contains($0.0) }),
                                         trigger: .vardict(pairs.filter { $0.0 == "calendar" || $0.0 == "repeats" }), options: empty)
    #expect(read == request)
  }

  @Test func errorNamesAreValidDBusNames() {
    #expect(DBusNames.errorName(ChimeError(.invalidInterval, "x")) == "io.github.chime.Chime1.Error.INVALID_INTERVAL")
    #expect(DBusNames.errorName(ChimeError(.invalidArgument, reason: "9.bad-reason", "x")) == "io.github.chime.Chime1.Error.E9_bad_reason")
    #expect(DBusNames.errorMessage(ChimeError(.invalidBadge, "too big", field: "content.badge")) == "too big [content.badge]")
  }
}
