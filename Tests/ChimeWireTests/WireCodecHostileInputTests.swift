import ChimeCore
import ChimeTestSupport
import ChimeWire
import Testing

/// Payloads a peer could send that the codec never produces.
@Suite struct WireCodecHostileInputTests {
  // MARK: Empty payloads are the proto3 defaults

  @Test func emptyPayloadsDecodeAsDefaults() throws {
    #expect(try WireCodec.decodeAddRequest([]) == NotificationRequest(identifier: "", content: NotificationContent()))
    let add = try WireCodec.decodeAddResponse([])
    #expect(add == AddResult(pending: PendingRequest(request: NotificationRequest(identifier: "", content: NotificationContent()), nextFire: Instant(unixMillis: 0), added: Instant(unixMillis: 0)), replaced: false))
    #expect(try WireCodec.decodePageRequest([]) == PageRequest())
    #expect(try WireCodec.decodeGetPendingResponse([]) == Page(items: []))
    #expect(try WireCodec.decodeGetDeliveredResponse([]) == Page(items: []))
    #expect(try WireCodec.decodeIdentifiersRequest([]) == [])
    #expect(try WireCodec.decodeRemoveResponse([]) == [])
    try WireCodec.decodeEmpty([])
    #expect(try WireCodec.decodeSubscribeRequest([]) == nil)
    let preview = try WireCodec.decodeNextTriggerDatesRequest([])
    #expect(preview.trigger == nil && preview.after == nil && preview.count == 0)
    #expect(try WireCodec.decodeNextTriggerDatesResponse([]) == [])
  }

  // MARK: Payloads built to make the decoder allocate

  /// protobuf-c merges a singular message that appears more than once, concatenating its
  /// repeated fields into new arrays each time: 16,384 copies of `alert_localization` holding
  /// one empty `loc_args` (64 KiB) would take about 1 GiB. The decode is refused, with a
  /// reason, by the memory budget of its unpacking (64 KiB + 128 bytes per payload byte).
  @Test func aMessageMergedManyTimesIsRefusedNotGrown() throws {
    // AddRequest.request.content.alert_localization.loc_args = [""], the localization 16,384 times.
    let payload = ProtoWriter.message { add in
      add.field(1) { request in
        request.field(2) { content in
          for _ in 0..<16_384 { content.field(15) { localization in localization.field(6, string: "") } }
        }
      }
    }
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(payload) }
    #expect(error?.reason == "MALFORMED_PAYLOAD")
    #expect(error?.message.contains("would take more than") == true)
  }

  /// The budget is above what any valid message needs: 30,000 empty attachments (2 bytes
  /// each, 64 bytes of struct and 8 of pointer each once unpacked) decode whole.
  @Test func manySmallElementsStillDecode() throws {
    let payload = ProtoWriter.message { add in  // AddRequest.request.content.attachments, 30,000 empty ones
      add.field(1) { request in request.field(2) { content in for _ in 0..<30_000 { content.field(7, bytes: []) } } }
    }
    let request = try WireCodec.decodeAddRequest(payload)
    #expect(request.content.attachments.count == 30_000)
  }

  @Test func nextTriggerDatesHostileInput() {
    let badZone = ProtoWriter.message { r in r.field(1) { d in d.field(2, bytes: [0xFF]) } }
    let zone = #expect(throws: ChimeError.self) { try WireCodec.decodeNextTriggerDatesResponse(badZone) }
    #expect(zone?.field == "dates[0].time_zone")
    let badGap = ProtoWriter.message { r in r.field(1) { t in t.field(2) { c in c.field(3, int32: 12) } } }
    let gap = #expect(throws: ChimeError.self) { try WireCodec.decodeNextTriggerDatesRequest(badGap) }
    #expect(gap?.field == "trigger.calendar.dst_gap")
    #expect(throws: ChimeError.self) { try WireCodec.decodeNextTriggerDatesRequest([0xFF]) }
  }

  @Test func emptyEventHasNoKindAndIsRefused() {
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeEvent([]) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.reason == "UNKNOWN_ENUM_VALUE")
    #expect(error?.field == "kind")
  }

  @Test func unspecifiedEnumsReadAsDocumentedDefaults() throws {
    let bytes = ProtoWriter.message { add in
      add.field(1) { req in
        req.field(1, string: "id")
        req.field(2) { content in
          content.field(1, string: "t")
          content.field(5) { sound in sound.field(2, string: "ignored.caf") }  // kind UNSPECIFIED
          content.field(11, int32: 0)
        }
        req.field(3) { trigger in
          trigger.field(2) { cal in
            cal.field(1) { _ in }
            cal.field(3, int32: 0)
            cal.field(4, int32: 0)
          }
        }
        req.field(4) { policy in policy.field(1, int32: 0) }
      }
    }
    let r = try WireCodec.decodeAddRequest(bytes)
    #expect(r.content.sound == nil)
    #expect(r.content.interruptionLevel == .active)
    #expect(r.trigger == .calendar(CalendarTrigger(components: CalendarComponents(), repeats: false, dstGap: .nextValid, dstOverlap: .first)))
    #expect(r.missedFire == .deliver)
    #expect(r.content.badge == nil)
    #expect(r.content.relevanceScore == nil)
  }

  @Test func triggerWithNoKindIsDeliverNow() throws {
    let bytes = ProtoWriter.message { add in
      add.field(1) { req in req.field(3) { _ in } }
    }
    #expect(try WireCodec.decodeAddRequest(bytes).trigger == nil)
  }

  // MARK: Not protobuf

  static let garbage: [[UInt8]] = [
    [0xFF, 0xFF, 0xFF],
    [0x0A, 0x05, 0x01],  // length-delimited field cut short
    [0x0F],  // wire type 7 does not exist
    [0x08],  // varint with no value
    Array(repeating: 0xFF, count: 11),  // varint longer than 10 bytes
  ]

  @Test(arguments: garbage)
  func garbageIsMalformedPayload(_ bytes: [UInt8]) {
    let decoders: [(String, ([UInt8]) throws -> Void)] = [
      ("AddRequest", { _ = try WireCodec.decodeAddRequest($0) }),
      ("AddResponse", { _ = try WireCodec.decodeAddResponse($0) }),
      ("PageRequest", { _ = try WireCodec.decodePageRequest($0) }),
      ("GetPendingResponse", { _ = try WireCodec.decodeGetPendingResponse($0) }),
      ("GetDeliveredResponse", { _ = try WireCodec.decodeGetDeliveredResponse($0) }),
      ("IdentifiersRequest", { _ = try WireCodec.decodeIdentifiersRequest($0) }),
      ("RemoveResponse", { _ = try WireCodec.decodeRemoveResponse($0) }),
      ("Empty", { try WireCodec.decodeEmpty($0) }),
      ("SubscribeRequest", { _ = try WireCodec.decodeSubscribeRequest($0) }),
      ("Event", { _ = try WireCodec.decodeEvent($0) }),
    ]
    for (name, decode) in decoders {
      let error = #expect(throws: ChimeError.self, "\(name)") { try decode(bytes) }
      #expect(error?.code == .invalidArgument, "\(name)")
      #expect(error?.reason == "MALFORMED_PAYLOAD", "\(name)")
    }
  }

  @Test func emptyIgnoresUnknownFields() throws {
    try WireCodec.decodeEmpty(ProtoWriter.message { $0.field(99, string: "from a newer peer") })
  }

  // MARK: Invalid UTF-8

  static let invalidUTF8: [[UInt8]] = [
    [0xFF],
    [0x61, 0xC3],  // sequence cut short
    [0xC0, 0xAF],  // overlong "/"
    [0xED, 0xA0, 0x80],  // UTF-16 surrogate
    [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
  ]

  @Test(arguments: invalidUTF8)
  func invalidUTF8InNestedStringNamesTheField(_ bad: [UInt8]) {
    let bytes = ProtoWriter.message { add in
      add.field(1) { req in
        req.field(2) { content in
          content.field(7) { _ in }
          content.field(7) { att in att.field(3) { opts in opts.field(1, bytes: bad) } }
        }
      }
    }
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(bytes) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.reason == "MALFORMED_PAYLOAD")
    #expect(error?.field == "request.content.attachments[1].options.type_hint")
  }

  @Test func invalidUTF8InRepeatedStrings() {
    let bytes = ProtoWriter.message { m in
      m.field(1, string: "ok")
      m.field(1, bytes: [0xFE])
    }
    let a = #expect(throws: ChimeError.self) { try WireCodec.decodeIdentifiersRequest(bytes) }
    #expect(a?.field == "identifiers[1]")
    let b = #expect(throws: ChimeError.self) { try WireCodec.decodeRemoveResponse(bytes) }
    #expect(b?.field == "removed[1]")
  }

  @Test func invalidUTF8InEveryTopLevelString() {
    let bad: [UInt8] = [0x80]
    let page = #expect(throws: ChimeError.self) { try WireCodec.decodePageRequest(ProtoWriter.message { $0.field(2, bytes: bad) }) }
    #expect(page?.field == "page_token")
    let pending = #expect(throws: ChimeError.self) { try WireCodec.decodeGetPendingResponse(ProtoWriter.message { $0.field(2, bytes: bad) }) }
    #expect(pending?.field == "next_page_token")
    let event = #expect(throws: ChimeError.self) {
      try WireCodec.decodeEvent(ProtoWriter.message { e in
        e.field(3, int32: 1)
        e.field(8, bytes: bad)
      })
    }
    #expect(event?.field == "note")
    let sound = #expect(throws: ChimeError.self) {
      try WireCodec.decodeAddResponse(ProtoWriter.message { r in
        r.field(1) { p in p.field(4) { s in s.field(1, string: "named"); s.field(2, bytes: bad) } }
      })
    }
    #expect(sound?.field == "pending.sound.path")
  }

  // MARK: Unknown enum values

  struct UnknownEnumCase: Sendable, CustomTestStringConvertible {
    var field: String
    var bytes: [UInt8]
    var testDescription: String { field }
  }

  static let unknownEnums: [UnknownEnumCase] = [
    UnknownEnumCase(field: "request.content.interruption_level", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(2) { c in c.field(11, int32: 9) } }
    }),
    UnknownEnumCase(field: "request.content.interruption_level", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(2) { c in c.field(11, int32: -1) } }
    }),
    UnknownEnumCase(field: "request.content.sound.kind", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(2) { c in c.field(5) { s in s.field(1, int32: 42) } } }
    }),
    UnknownEnumCase(field: "request.trigger.calendar.dst_gap", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(3) { t in t.field(2) { cal in cal.field(3, int32: 3) } } }
    }),
    UnknownEnumCase(field: "request.trigger.calendar.dst_overlap", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(3) { t in t.field(2) { cal in cal.field(4, int32: 3) } } }
    }),
    UnknownEnumCase(field: "request.missed_fire.action", bytes: ProtoWriter.message { a in
      a.field(1) { r in r.field(4) { p in p.field(1, int32: 4) } }
    }),
  ]

  @Test(arguments: unknownEnums)
  func unknownEnumInAddRequest(_ c: UnknownEnumCase) {
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(c.bytes) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.reason == "UNKNOWN_ENUM_VALUE")
    #expect(error?.field == c.field)
  }

  @Test func negativeEnumValueIsReportedAsWritten() {
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(Self.unknownEnums[1].bytes) }
    #expect(error?.message.contains("-1") == true)
  }

  @Test func unknownEnumDeepInAListNamesTheElement() {
    let bytes = ProtoWriter.message { page in
      page.field(1) { _ in }
      page.field(1) { p in p.field(1) { r in r.field(2) { c in c.field(11, int32: 77) } } }
    }
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeGetPendingResponse(bytes) }
    #expect(error?.field == "requests[1].request.content.interruption_level")
  }

  @Test func unknownEventKind() {
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeEvent(ProtoWriter.message { $0.field(3, int32: 99) }) }
    #expect(error?.reason == "UNKNOWN_ENUM_VALUE")
    #expect(error?.field == "kind")
  }

  @Test func unknownSoundResolution() {
    let bytes = ProtoWriter.message { e in
      e.field(3, int32: 2)
      e.field(6) { p in p.field(4) { s in s.field(1, string: "loudly") } }
    }
    let error = #expect(throws: ChimeError.self) { try WireCodec.decodeEvent(bytes) }
    #expect(error?.reason == "UNKNOWN_ENUM_VALUE")
    #expect(error?.field == "pending.sound.plays")
  }

  // MARK: Odd but valid

  @Test func lastOneofValueWins() throws {
    let bytes = ProtoWriter.message { a in
      a.field(1) { r in
        r.field(3) { t in
          t.field(1) { ti in ti.field(2, varint: 1) }
          t.field(2) { cal in cal.field(2, varint: 1) }
        }
      }
    }
    guard case .calendar(let c)? = try WireCodec.decodeAddRequest(bytes).trigger else {
      Issue.record("expected the calendar trigger written last")
      return
    }
    #expect(c.repeats)
  }

  // MARK: NUL inside strings

  @Test func aNULInsideAStringIsRefusedNamingTheField() {
    // protobuf-c hands strings over NUL-terminated, so "a\0b" would be read as "a": refused.
    let ids = #expect(throws: ChimeError.self) {
      try WireCodec.decodeIdentifiersRequest(ProtoWriter.message { m in
        m.field(1, string: "ok")
        m.field(1, bytes: [0x61, 0x00, 0x62])
      })
    }
    #expect(ids?.code == .invalidArgument)
    #expect(ids?.reason == "FIELD_CONTAINS_NUL")
    #expect(ids?.field == "identifiers[1]")
  }

  @Test func aNULDeepInsideARequestNamesItsPath() {
    let soundName = ProtoWriter.message { add in
      add.field(1) { req in
        req.field(1, string: "id")
        req.field(2) { content in
          content.field(1, string: "t")
          content.field(5) { sound in
            sound.field(1, varint: 3)
            sound.field(2, bytes: Array("ding.wav".utf8) + [0] + Array("../../x.wav".utf8))
          }
        }
      }
    }
    let sound = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(soundName) }
    #expect(sound?.reason == "FIELD_CONTAINS_NUL")
    #expect(sound?.field == "request.content.sound.name")

    let attachmentPath = ProtoWriter.message { add in
      add.field(1) { req in
        req.field(1, string: "id")
        req.field(2) { content in
          content.field(7) { a in a.field(2, string: "/tmp/ok.png") }
          content.field(7) { a in a.field(2, bytes: Array("/tmp/a.png".utf8) + [0, 0x78]) }
        }
      }
    }
    let path = #expect(throws: ChimeError.self) { try WireCodec.decodeAddRequest(attachmentPath) }
    #expect(path?.field == "request.content.attachments[1].path")
  }

  @Test func encodersRefuseStringsTheWireWouldCut() {
    // The client side: "tea\0x" would reach the daemon as "tea", another request.
    var request = NotificationRequest(identifier: "id", content: NotificationContent(title: "t"))
    request.content.sound = .named("ding.wav\0../x.wav")
    let add = #expect(throws: ChimeError.self) { try WireCodec.encodeAddRequest(request) }
    #expect(add?.code == .invalidArgument)
    #expect(add?.reason == "FIELD_CONTAINS_NUL")
    #expect(throws: ChimeError.self) { try WireCodec.encodeIdentifiersRequest(["tea\0x"]) }
    #expect(throws: ChimeError.self) { try WireCodec.encodeCheckSoundRequest(name: "a\0b") }
    #expect(throws: ChimeError.self) { try WireCodec.encodeRegisterAppRequest(.init(container: "/a\0/b", groupContainers: [], bundle: "")) }
  }

  @Test func zerosOutsideStringsAreFine() throws {
    // Varints, doubles and the like hold zero bytes all the time: only strings are judged.
    let bytes = ProtoWriter.message { add in
      add.field(1) { req in
        req.field(1, string: "id")
        req.field(2) { content in
          content.field(1, string: "t")
          content.field(4, varint: 0)
        }
        req.field(3) { t in t.field(1) { ti in ti.field(1, double: 60) } }  // 00 00 00 00 00 00 4E 40
      }
    }
    let request = try WireCodec.decodeAddRequest(bytes)
    #expect(request.identifier == "id")
    #expect(request.content.badge == 0)
    #expect(request.trigger == .timeInterval(TimeIntervalTrigger(seconds: 60)))
  }
}
