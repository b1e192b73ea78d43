import ChimeCore
import ChimeRecords
import ChimeTestSupport
import Testing

/// Every record the store keeps survives encode then decode, with all fields set and with all
/// optional ones unset; bytes that are not the record are refused, not guessed at.
@Suite struct RecordCodecTests {
  let codec = RecordCodec()

  @Test func pendingRequests() throws {
    for pending in [FullValues.fullPending(), FullValues.minimalPending] {
      #expect(try codec.decode(PendingRequest.self, from: codec.encode(pending)) == pending)
    }
    #expect(throws: ChimeError.self) { try codec.decode(PendingRequest.self, from: [0xFF]) }
    #expect(throws: ChimeError.self) { try codec.decode(Event.self, from: [0xFF, 0xFF, 0xFF]) }
  }

  @Test func deliveredNotifications() throws {
    for delivered in [FullValues.fullDelivered(), FullValues.minimalDelivered] {
      #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(delivered)) == delivered)
    }
    // A delivered notification without a category has none after the trip.
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(FullValues.minimalDelivered)).category == nil)
  }

  /// A pushed notification keeps how it was pushed and its localized alert.
  @Test func aDeliveredRecordKeepsThePushAndTheLocalization() throws {
    var d = FullValues.fullDelivered()
    var loc = AlertLocalization()
    loc.titleLocKey = "T"
    loc.titleLocArgs = ["a", "b"]
    loc.locKey = "L"
    loc.locArgs = ["d"]
    d.request.content.alertLocalization = loc
    d.push = PushDelivery(mutableContent: true, source: .bestAttempt, reason: "", message: "", extensionIdentifier: "svc",
                          refusedAttachments: [RefusedAttachment(identifier: "x", path: "/tmp/x.png", reason: "ATTACHMENT_CORRUPT",
                                                                 message: "bad", field: "content.attachments[1]")])
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(d)) == d)
  }

  // No NUL: the validator refuses it in every text field (protobuf-c strings are C strings).
  static let awkward = ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r\u{1F}\u{7F}", "ünïcødé 🔔 e\u{301}\"\u{301}", "</script>", ""]

  @Test(arguments: awkward)
  func awkwardTextSurvives(text: String) throws {
    let at = Instant(unixMillis: 1_800_000_000_000)
    var request = NotificationRequest(identifier: text.isEmpty ? "x" : text, content: NotificationContent(title: text, body: text))
    request.content.userInfoJSON = #"{"k":"\#(text.isEmpty ? "v" : "w")"}"#
    let pending = PendingRequest(request: request, nextFire: at, added: at)
    let delivered = DeliveredNotification(request: request, delivered: at, due: at, missed: true)
    let event = Event(cursor: 7, at: at, kind: .delivered, identifiers: [text, "b", text], delivered: delivered, pending: pending, note: text)
    #expect(try codec.decode(PendingRequest.self, from: codec.encode(pending)) == pending)
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(delivered)) == delivered)
    #expect(try codec.decode(Event.self, from: codec.encode(event)) == event)
  }

  @Test func aQuietDeliveryStaysQuiet() throws {
    var delivered = FullValues.minimalDelivered
    delivered.quiet = true
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(delivered)).quiet)
    delivered.quiet = false
    #expect(try !codec.decode(DeliveredNotification.self, from: codec.encode(delivered)).quiet)
  }

  @Test func categories() throws {
    for category in [FullValues.fullCategory(), FullValues.minimalCategory] {
      #expect(try codec.decode(NotificationCategory.self, from: codec.encode(category)) == category)
    }
    // An action with an empty text input stays a text-input action.
    #expect(try codec.decode(NotificationCategory.self, from: codec.encode(FullValues.fullCategory())).actions[2].textInput != nil)
  }

  @Test func events() throws {
    let minimal = Event(at: Instant(unixMillis: 0), kind: .subscribed)
    for event in [FullValues.fullEvent(), minimal] {
      #expect(try codec.decode(Event.self, from: codec.encode(event)) == event)
    }
  }

  /// The store packs an added request once, for its row and its event: the event built from
  /// those bytes decodes to the same event, whatever else it carries.
  @Test func anEventWithItsPendingAlreadyPacked() throws {
    let full = FullValues.fullEvent()
    let pending = try #require(full.pending)
    #expect(try codec.decode(Event.self, from: codec.encode(full, packedPending: codec.encode(pending))) == full)
    var added = Event(cursor: 3, at: Instant(unixMillis: 1_700_000_000_000), kind: .pendingAdded, identifiers: [pending.request.identifier])
    added.pending = pending
    #expect(try codec.decode(Event.self, from: codec.encode(added, packedPending: codec.encode(pending))) == added)
  }

  /// A request longer than 127 bytes takes a length of two or more bytes in front of it.
  @Test func aPackedPendingOfAnyLengthIsFramedAsItsField() throws {
    var pending = FullValues.minimalPending
    for length in [0, 100, 200, 20_000] {
      pending.request.content.body = String(repeating: "b", count: length)
      var event = Event(cursor: 1, at: Instant(unixMillis: 2), kind: .pendingAdded, identifiers: ["x"])
      event.pending = pending
      #expect(try codec.decode(Event.self, from: codec.encode(event, packedPending: codec.encode(pending))) == event)
    }
  }
  /// The add's event body written by hand is the bytes protobuf-c writes for the same event,
  /// for instants before, at and after the epoch, every kind, identifiers of one and of many
  /// bytes' length (non-ASCII, and one holding a NUL, which both cut there), and requests whose
  /// length takes one, two or three bytes.
  @Test func theAddEventWrittenByHandIsWhatProtobufCWrites() throws {
    var pending = FullValues.minimalPending
    let instants: [Int64] = [0, 1, 127, 128, 1_800_000_000_000, -1, -86_400_000, .max, .min]
    let identifiers = ["x", "", "réveil-☀️", "cut\u{0}here", String(repeating: "i", count: 127), String(repeating: "j", count: 300)]
    var compared = 0
    for length in [0, 100, 200, 20_000] {
      pending.request.content.body = String(repeating: "b", count: length)
      let packed = codec.encode(pending)
      for millis in instants {
        for kind in [Event.Kind.pendingAdded, .pendingReplaced, .delivered, .badgeChanged] {
          for identifier in identifiers {
            let event = Event(at: Instant(unixMillis: millis), kind: kind, identifiers: [identifier], pending: pending)
            let byHand = codec.encodeEvent(at: event.at, kind: kind, identifier: identifier, packedPending: packed)
            // protobuf-c packing the whole event, its request included.
            #expect(byHand == codec.encode(event), "\(millis) \(kind) \(identifier.prefix(10)) \(length)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 4 * 9 * 4 * 6)
  }
}
