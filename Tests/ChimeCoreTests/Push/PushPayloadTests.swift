import ChimeCore
import Testing

/// APNs payloads read into content, and refused with the field path that is wrong.
@Suite struct PushPayloadTests {
  func parse(_ json: String, maxBytes: Int = PushPayload.maxBytesDefault) throws -> PushPayload {
    try PushPayload.parse(Array(json.utf8), maxBytes: maxBytes)
  }

  @Test func aFullPayloadFillsEveryField() throws {
    let payload = try parse("""
      {"aps":{"alert":{"title":"Game","subtitle":"Final","body":"3 \\u2013 1","launch-image":"splash.png",
       "title-loc-key":"T_KEY","title-loc-args":["a",2],"loc-key":"B_KEY","loc-args":["x"],"subtitle-loc-key":"S"},
       "badge":4,"sound":"ding.caf","category":"score","thread-id":"match-9","mutable-content":1,
       "interruption-level":"time-sensitive","relevance-score":0.75,"target-content-id":"m9","content-available":1,"unknown":true},
       "media-url":"https://example.com/cat.png", "n": [1, {"deep": null}]}
      """)
    let c = payload.content
    #expect(payload.mutableContent)
    #expect(c.title == "Game" && c.subtitle == "Final" && c.body == "3 – 1" && c.launchImageName == "splash.png")
    #expect(c.alertLocalization?.titleLocKey == "T_KEY" && c.alertLocalization?.titleLocArgs == ["a", "2"])
    #expect(c.alertLocalization?.locKey == "B_KEY" && c.alertLocalization?.locArgs == ["x"] && c.alertLocalization?.subtitleLocKey == "S")
    #expect(c.badge == 4 && c.sound == .named("ding.caf"))
    #expect(c.categoryIdentifier == "score" && c.threadIdentifier == "match-9" && c.targetContentIdentifier == "m9")
    #expect(c.interruptionLevel == .timeSensitive && c.relevanceScore == 0.75)
    #expect(c.userInfoJSON == #"{"media-url":"https://example.com/cat.png","n": [1, {"deep": null}]}"#, "keys outside aps, as written")
  }

  @Test func aStringAlertIsTheBodyAndDefaultsAreLocal() throws {
    let p = try parse(#"{"aps":{"alert":"Hello","sound":"default"}}"#)
    #expect(p.content.body == "Hello" && p.content.title.isEmpty && p.content.sound == .default)
    #expect(!p.mutableContent && p.content.userInfoJSON.isEmpty && p.content.interruptionLevel == .active && p.content.alertLocalization == nil)
    #expect(try parse(#"{"aps":{"alert":"x","mutable-content":0}}"#).mutableContent == false)
  }

  @Test func criticalSoundDictionaries() throws {
    let named = try parse(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"siren.caf","volume":0.5}}}"#).content.sound
    #expect(named == Sound(kind: .criticalNamed, name: "siren.caf", volume: 0.5))
    let def = try parse(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"default","volume":1}}}"#).content.sound
    #expect(def == Sound(kind: .defaultCritical, volume: 1))
    #expect(try parse(#"{"aps":{"alert":"x","sound":{"name":"a.caf"}}}"#).content.sound == .named("a.caf"))
  }

  @Test func everyInterruptionLevelSpelling() throws {
    for (name, level) in [("passive", InterruptionLevel.passive), ("active", .active), ("time-sensitive", .timeSensitive), ("critical", .critical)] {
      #expect(try parse(#"{"aps":{"alert":"x","interruption-level":"\#(name)"}}"#).content.interruptionLevel == level)
    }
  }

  @Test func aLocKeyAloneIsContent() throws {
    let p = try parse(#"{"aps":{"alert":{"loc-key":"NEW_MESSAGE","loc-args":["Ann"]}}}"#)
    #expect(p.content.hasContent)
    try RequestValidator.validate(p.content, field: "aps")
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var json: String
    var reason: String
    var field: String
    var testDescription: String { "\(reason) \(field)" }
  }

  @Test(arguments: [
    Refusal(json: "not json", reason: "INVALID_PUSH_PAYLOAD", field: "payload"),
    Refusal(json: #"{"aps":{"alert":"x"}"#, reason: "INVALID_PUSH_PAYLOAD", field: "payload"),
    Refusal(json: #"["aps"]"#, reason: "INVALID_PUSH_PAYLOAD", field: "payload"),
    Refusal(json: #"{"other":1}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps"),
    Refusal(json: #"{"aps":"alert"}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps"),
    Refusal(json: #"{"aps":{"alert":5}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.alert"),
    Refusal(json: #"{"aps":{"alert":{"title":7}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.alert.title"),
    Refusal(json: #"{"aps":{"alert":{"body":["b"]}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.alert.body"),
    Refusal(json: #"{"aps":{"alert":{"loc-args":"x"}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.alert.loc-args"),
    Refusal(json: #"{"aps":{"alert":{"loc-args":[null]}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.alert.loc-args[0]"),
    Refusal(json: #"{"aps":{"alert":"x","badge":"3"}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.badge"),
    Refusal(json: #"{"aps":{"alert":"x","badge":1.5}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.badge"),
    Refusal(json: #"{"aps":{"alert":"x","sound":true}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.sound"),
    Refusal(json: #"{"aps":{"alert":"x","sound":{"critical":"yes"}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.sound.critical"),
    Refusal(json: #"{"aps":{"alert":"x","sound":{"volume":"loud"}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.sound.volume"),
    Refusal(json: #"{"aps":{"alert":"x","category":1}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.category"),
    Refusal(json: #"{"aps":{"alert":"x","thread-id":{}}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.thread-id"),
    Refusal(json: #"{"aps":{"alert":"x","mutable-content":true}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.mutable-content"),
    Refusal(json: #"{"aps":{"alert":"x","relevance-score":"high"}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.relevance-score"),
    Refusal(json: #"{"aps":{"alert":"x","interruption-level":2}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "aps.interruption-level"),
    Refusal(json: #"{"aps":{"alert":"x","interruption-level":"urgent"}}"#, reason: "UNKNOWN_INTERRUPTION_LEVEL", field: "aps.interruption-level"),
    Refusal(json: #"{"aps":{"alert":"\ud800"}}"#, reason: "INVALID_PUSH_PAYLOAD", field: "payload"),
  ])
  func malformedPayloadsAreRefusedWithTheirFieldPath(_ r: Refusal) {
    #expect(throws: ChimeError.self) { try parse(r.json) }
    do {
      _ = try parse(r.json)
    } catch let error as ChimeError {
      #expect(error.reason == r.reason && error.field == r.field && error.code == .invalidArgument, "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func theSizeLimitIsAFlagAndCountsBytes() throws {
    let body = String(repeating: "é", count: 2100)  // 4200 bytes of UTF-8
    let json = #"{"aps":{"alert":"\#(body)"}}"#
    #expect(throws: ChimeError.self) { try parse(json) }
    do { _ = try parse(json) } catch let error as ChimeError {
      #expect(error.reason == "PUSH_PAYLOAD_TOO_LARGE" && error.field == "payload")
    } catch {}
    #expect(try parse(json, maxBytes: 5000).content.body == body)
    // Exactly at the limit is accepted.
    let exact = Array(#"{"aps":{"alert":"x"}}"#.utf8)
    #expect(try PushPayload.parse(exact, maxBytes: exact.count).content.body == "x")
  }

  @Test func deepNestingIsRefusedNotRecursedInto() {
    let deep = #"{"aps":{"alert":"x"},"d":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}"
    #expect(throws: ChimeError.self) { try parse(deep, maxBytes: 10_000) }
  }
}

/// Which content a pushed notification delivers.
@Suite struct ServicePlanTests {
  let original = NotificationContent(title: "Original")

  @Test func notMutableDeliversTheOriginalWithNoReason() {
    let (content, push) = ServicePlan.decide(original: original, mutable: false, extensionIdentifier: "svc", answer: .content(NotificationContent(title: "New")), bestAttempt: false)
    #expect(content == original && push.source == .original && push.reason.isEmpty && !push.mutableContent)
  }

  @Test func eachEndingOfTheAsk() {
    let new = NotificationContent(title: "New")
    let cases: [(String?, ServiceAnswer?, Bool, NotificationContent, PushDelivery.Source, String)] = [
      (nil, nil, false, original, .original, "SERVICE_EXTENSION_NOT_RUNNING"),
      ("svc", .content(new), false, new, .extension, ""),
      ("svc", .content(new), true, new, .bestAttempt, ""),
      ("svc", .failed("no network"), false, original, .original, "SERVICE_EXTENSION_FAILED"),
      ("svc", .timedOut, true, original, .original, "SERVICE_EXTENSION_TIMED_OUT"),
      ("svc", .disconnected, false, original, .original, "SERVICE_EXTENSION_DISCONNECTED"),
      ("svc", .content(NotificationContent()), false, original, .original, "NOTIFICATION_INVALID_NO_CONTENT"),
    ]
    for (ext, answer, best, expected, source, reason) in cases {
      let (content, push) = ServicePlan.decide(original: original, mutable: true, extensionIdentifier: ext, answer: answer, bestAttempt: best)
      #expect(content == expected && push.source == source && push.reason == reason && push.mutableContent, "\(String(describing: answer))")
      #expect(push.extensionIdentifier == (ext ?? ""))
      #expect(!push.note.isEmpty)
    }
  }
}
