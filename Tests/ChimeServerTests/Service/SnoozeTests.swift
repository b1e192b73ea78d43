import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// Snooze through the whole daemon with a manual clock: the notification leaves the delivered
/// list, a `snoozed` event says when it comes back, it is delivered again then with its count,
/// a repeating request keeps its own schedule, restarts and removals, attachments, and the
/// category's snooze buttons answered as a `chime.snooze` response.
@Suite(.testTimeLimit) struct SnoozeTests {
  func expectError(_ reason: String, code: StatusCode, _ body: () async throws -> Void,
                   sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let error = await caughtError(body) else {
      Issue.record("expected \(reason)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.reason == reason && error.code == code, "\(error)", sourceLocation: sourceLocation)
  }

  func nextExtensionEvent(_ events: inout AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator) async throws -> ExtensionEvent {
    try await nextMessage(&events)
  }

  /// `id` added to fire in 10 s, then fired.
  func delivered(_ id: String, _ d: InProcessDaemon, _ client: ChimeClient,
                 _ events: inout AsyncThrowingStream<Event, any Error>.AsyncIterator, repeats: Bool = false) async throws {
    _ = try await client.add(.tea(id, in: repeats ? 60 : 10, repeats: repeats))
    d.advance(seconds: repeats ? 60 : 10)
    _ = try await nextEvent(&events) { $0.kind == .delivered && $0.identifiers == [id] }
  }

  @Test(arguments: Transport.allCases) func aSnoozedNotificationLeavesTheListAndComesBackAfterTheDuration(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await delivered("tea", d, client, &events)
    let snoozedAt = d.clock.now()

    let entry = try await client.snooze("tea", seconds: 600)
    #expect(entry.snoozeCount == 1 && entry.nextFire == snoozedAt.adding(millis: 600_000) && entry.added == snoozedAt)
    #expect(entry.request.content.title == "Tea")
    let event = try await nextEvent(&events) { $0.kind != .badgeChanged }
    #expect(event.kind == .snoozed && event.identifiers == ["tea"])
    #expect(event.pending == entry, "the event carries when it comes back")
    #expect(try await client.allDelivered().isEmpty)
    #expect(try await client.allPending() == [entry], "listed with the pending requests, as snoozed")

    d.advance(seconds: 599)
    #expect(try await client.allDelivered().isEmpty)
    d.advance(seconds: 1)
    let back = try await nextEvent(&events) { $0.kind == .delivered }
    let record = try #require(back.delivered)
    #expect(record.snoozeCount == 1 && record.request.content == entry.request.content)
    #expect(record.due == entry.nextFire && record.delivered == d.clock.now() && !record.missed)
    #expect(back.note.contains("snoozed once"), "\(back.note)")
    #expect(try await client.allPending().isEmpty)
    #expect(try await client.allDelivered().map(\.snoozeCount) == [1])

    // Snoozed again, it comes back with count 2.
    _ = try await client.snooze("tea", seconds: 60)
    d.advance(seconds: 60)
    let again = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(again.delivered?.snoozeCount == 2)
  }

  @Test func aRepeatingRequestsNextFireIsNotMovedBySnoozingOneDelivery() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let start = d.clock.now()
    try await delivered("standup", d, client, &events, repeats: true)
    _ = try await client.snooze("standup", seconds: 90)
    let listed = try await client.allPending()
    #expect(listed.map(\.snoozeCount) == [0, 1], "the request, then its snoozed delivery")
    #expect(listed.map(\.nextFire) == [start.adding(millis: 120_000), start.adding(millis: 150_000)])

    d.advance(seconds: 60)
    let next = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(next.delivered?.snoozeCount == 0 && next.delivered?.due == start.adding(millis: 120_000), "the next occurrence, on time")
    d.advance(seconds: 30)
    let back = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(back.delivered?.snoozeCount == 1 && back.identifiers == ["standup"])
    #expect(try await client.allPending().map(\.nextFire) == [start.adding(millis: 180_000)])
  }

  @Test func durationsOutsideAMinuteToAWeekAndUnknownNotificationsAreRefused() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await delivered("tea", d, client, &events)
    await expectError("INVALID_SNOOZE_DURATION", code: .invalidArgument) { _ = try await client.snooze("tea", seconds: 59) }
    await expectError("INVALID_SNOOZE_DURATION", code: .invalidArgument) { _ = try await client.snooze("tea", seconds: 604_801) }
    await expectError("NOTIFICATION_NOT_DELIVERED", code: .notFound) { _ = try await client.snooze("coffee", seconds: 600) }
    #expect(try await client.allDelivered().count == 1, "a refused snooze changes nothing")
    _ = try await client.snooze("tea", seconds: 604_800)
    await expectError("NOTIFICATION_NOT_DELIVERED", code: .notFound) { _ = try await client.snooze("tea", seconds: 600) }
  }

  @Test func aSnoozeSurvivesARestartAndFiresOnTime() async throws {
    let d = try InProcessDaemon()
    var client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await delivered("tea", d, client, &events)
    let entry = try await client.snooze("tea", seconds: 300)
    try d.restart()
    client = try d.client()
    #expect(try await client.allPending() == [entry])
    events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    d.advance(seconds: 300)
    let back = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(back.delivered?.snoozeCount == 1 && back.delivered?.missed == false)
  }

  @Test(arguments: ["pending", "delivered", "all pending", "all delivered"])
  func removingTheIdentifierCancelsTheSnooze(_ how: String) async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await delivered("tea", d, client, &events)
    _ = try await client.snooze("tea", seconds: 60)
    let removed = switch how {
    case "pending": try await client.removePending(["tea"])
    case "delivered": try await client.removeDelivered(["tea"])
    case "all pending": try await client.removeAllPending()
    default: try await client.removeAllDelivered()
    }
    #expect(removed == ["tea"])
    #expect(try await client.allPending().isEmpty)
    d.advance(seconds: 60)
    // Nothing comes back: the next delivery the app sees is a later request's.
    _ = try await client.add(.tea("marker", in: 1))
    d.advance(seconds: 1)
    let next = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(next.identifiers == ["marker"])
  }

  @Test func theStoreKeepsTheAttachmentWhileSnoozedAndDeliversItAgain() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = NotificationRequest.tea("photo", in: 10)
    request.content.attachments = [Attachment(path: MediaCorpus.copy("images/png-interlaced.png", to: d.directory.file("in/photo.png")))]
    let added = try await client.add(request)
    let stored = try #require(added.pending.request.content.attachments.first?.info?.storePath)
    d.advance(seconds: 10)
    _ = try await nextEvent(&events) { $0.kind == .delivered }
    _ = try await client.snooze("photo", seconds: 120)
    _ = try await nextEvent(&events) { $0.kind == .snoozed }
    #expect(MediaCorpus.exists(stored), "the snoozed notification holds its file")
    d.advance(seconds: 120)
    let back = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(back.delivered?.request.content.attachments.first?.info?.storePath == stored)
    #expect(MediaCorpus.exists(stored))
    _ = try await client.removeDelivered(["photo"])
    try await waitUntil { !MediaCorpus.exists(stored) }
  }

  static let alarm = NotificationCategory(identifier: "alarm", actions: [NotificationAction(identifier: "stop", title: "Stop")])

  /// A client with the alarm category offering 5 and 10 minutes and `wake` delivered in it.
  func alarmed(_ d: InProcessDaemon, over transport: Transport = .inProcess) async throws -> ChimeClient {
    let client = try d.client(over: transport)
    var category = Self.alarm
    category.snoozeSeconds = [300, 600]
    try await client.setCategories([category])
    var request = NotificationRequest.tea("wake", title: "Wake up", in: nil)
    request.content.categoryIdentifier = "alarm"
    _ = try await client.add(request)
    return client
  }

  @Test(arguments: Transport.allCases) func aSnoozeButtonIsAResponseThatSnoozes(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await alarmed(d, over: transport)
    #expect(try await client.categories().first?.snoozeSeconds == [300, 600])
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    await expectError("SNOOZE_NOT_OFFERED", code: .invalidArgument) { try await client.respondSnooze(to: "wake", seconds: 900) }
    let result = try await client.respondSnooze(to: "wake", seconds: 300)
    #expect(result.removed)
    let response = try await nextEvent(&events)
    #expect(response.kind == .response && response.response?.actionIdentifier == "chime.snooze" && response.response?.snoozeSeconds == 300)
    let snoozed = try await nextEvent(&events)
    #expect(snoozed.kind == .snoozed && snoozed.pending?.nextFire == d.clock.now().adding(millis: 300_000))
    #expect(try await client.allDelivered().isEmpty)
    d.advance(seconds: 300)
    let back = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(back.delivered?.snoozeCount == 1 && back.delivered?.category?.snoozeSeconds == [300, 600])
  }

  @Test func aCategoryWithoutSnoozeRefusesTheResponseAndBadDurationsAreRefusedWhenSet() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    try await client.setCategories([Self.alarm])
    var request = NotificationRequest.tea("wake", in: nil)
    request.content.categoryIdentifier = "alarm"
    _ = try await client.add(request)
    await expectError("SNOOZE_NOT_OFFERED", code: .invalidArgument) { try await client.respondSnooze(to: "wake", seconds: 300) }
    var bad = Self.alarm
    bad.snoozeSeconds = [30]
    await expectError("INVALID_SNOOZE_DURATION", code: .invalidArgument) { try await client.setCategories([bad]) }
    bad.snoozeSeconds = [60, 120, 180, 240, 300, 360]
    await expectError("TOO_MANY_SNOOZE_DURATIONS", code: .invalidArgument) { try await client.setCategories([bad]) }
    let reserved = NotificationCategory(identifier: "x", actions: [NotificationAction(identifier: "chime.snooze", title: "Snooze")])
    await expectError("RESERVED_ACTION_IDENTIFIER", code: .invalidArgument) { try await client.setCategories([reserved]) }
  }

  struct ExtensionCase: Sendable, CustomTestStringConvertible {
    var answer: ExtensionAnswer
    var snoozed: Bool
    var delivered: Bool
    var testDescription: String { "\(answer)" }
  }

  /// The content extension is asked first: dismiss-and-forward lets chimed snooze; dismiss or
  /// do-not-dismiss means the extension handled the button itself.
  @Test(arguments: [
    ExtensionCase(answer: .dismissAndForward, snoozed: true, delivered: false),
    ExtensionCase(answer: .dismiss, snoozed: false, delivered: false),
    ExtensionCase(answer: .doNotDismiss, snoozed: false, delivered: true),
  ])
  func theContentExtensionIsAskedFirst(_ c: ExtensionCase) async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    let ext = try d.client()
    var category = Self.alarm
    category.snoozeSeconds = [300]
    try await app.setCategories([category])
    var stream = ext.registerExtension("ui", categories: ["alarm"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)
    var request = NotificationRequest.tea("wake", in: nil)
    request.content.categoryIdentifier = "alarm"
    _ = try await app.add(request)
    #expect(try await nextExtensionEvent(&stream).delivered != nil)
    async let answered = app.respondSnooze(to: "wake", seconds: 300)
    let asked = try await nextExtensionEvent(&stream)
    #expect(asked.response?.actionIdentifier == "chime.snooze" && asked.response?.snoozeSeconds == 300)
    try await ext.answerResponse(asked.responseID, extension: "ui", with: c.answer)
    _ = try await answered
    #expect(try await app.allPending().map(\.snoozeCount) == (c.snoozed ? [1] : []))
    #expect(try await app.allDelivered().isEmpty == !c.delivered)
  }
}
