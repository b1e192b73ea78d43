import ChimeCore
import ChimeTestSupport
import Testing

@testable import ChimeDBus
@testable import ChimeServer

/// Which events of an app's stream become which D-Bus signals, with what arguments.
@Suite(.testTimeLimit) struct DBusAppSignalsTests {
  let at = Instant(unixMillis: 1_700_000_000_000)

  @Test func eachEventKindBecomesItsSignal() throws {
    let request = NotificationRequest(identifier: "tea", content: NotificationContent(title: "Tea"))
    let delivered = DeliveredNotification(request: request, delivered: at, due: at)
    let (member, arguments) = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .delivered, identifiers: ["tea"], delivered: delivered)))
    #expect(member == "Delivered" && arguments.first == .string("tea") && arguments.map(\.signature) == ["s", "a{sv}"])
    #expect(arguments.last == .vardict(DBusRecords.delivered(delivered)))

    let response = NotificationResponse(notificationIdentifier: "tea", actionIdentifier: "sip", userText: "now", at: at)
    let answered = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .response, response: response)))
    #expect(answered.0 == "Response" && answered.1.prefix(2) == [.string("tea"), .string("sip")])
    #expect(answered.1.last == .vardict([("user-text", .string("now")), ("at", .int64(at.unixMillis))]))

    let removed = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .pendingRemoved, identifiers: ["a", "b"])))
    #expect(removed.0 == "PendingRemoved" && removed.1 == [.strings(["a", "b"])])

    let badge = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .badgeChanged, badgeCount: 4)))
    #expect(badge.0 == "BadgeChanged" && badge.1 == [.int32(4)])

    let rang = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .ringEnded, identifiers: ["wake"], note: "dismissed")))
    #expect(rang.0 == "RingEnded" && rang.1 == [.string("wake"), .string("dismissed")])

    let allowed = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .authorizationChanged, note: "authorized")))
    #expect(allowed.0 == "AuthorizationChanged" && allowed.1 == [.string("authorized")])

    // A request that became pending (added, replaced, or snoozed and waiting to return): the
    // dictionary GetPending lists, so a window can show it without listing again.
    let pending = PendingRequest(request: request, nextFire: at.adding(seconds: 60), added: at)
    for kind in [Event.Kind.pendingAdded, .pendingReplaced, .snoozed] {
      let added = try #require(DBusAppSignals.signal(for: Event(at: at, kind: kind, identifiers: ["tea"], pending: pending)), "\(kind)")
      #expect(added.0 == "PendingAdded" && added.1 == [.string("tea"), .vardict(DBusRecords.pending(pending))], "\(kind)")
    }
    let gone = try #require(DBusAppSignals.signal(for: Event(at: at, kind: .deliveredRemoved, identifiers: ["tea"])))
    #expect(gone.0 == "DeliveredRemoved" && gone.1 == [.strings(["tea"])])
  }

  /// The stream's own markers and the kinds the interface has no signal for send nothing.
  @Test func otherEventsSendNothing() {
    // A pending kind without its request (never sent so) has nothing to show either.
    for kind in [Event.Kind.subscribed, .pendingAdded, .pendingReplaced, .missedSkipped, .eventsLost, .presentationFailed] {
      #expect(DBusAppSignals.signal(for: Event(at: at, kind: kind)) == nil, "\(kind)")
    }
  }
}
