import ChimeTestSupport
import ChimeCore
import ChimeWire
import Testing

/// Push, AnswerService and the service-extension parts of RegisterExtension and ExtensionEvent
/// survive encode then decode.
@Suite struct PushCodecTests {
  static func content() -> NotificationContent {
    var c = FullValues.fullRequest().content
    var loc = AlertLocalization()
    loc.titleLocKey = "T"
    loc.titleLocArgs = ["a", "b"]
    loc.subtitleLocKey = "S"
    loc.subtitleLocArgs = ["c"]
    loc.locKey = "L"
    loc.locArgs = ["d", "e", "f"]
    c.alertLocalization = loc
    return c
  }

  static func delivered() -> DeliveredNotification {
    var d = DeliveredNotification(request: NotificationRequest(identifier: "p", content: content()), delivered: Instant(unixMillis: 5),
                                  due: Instant(unixMillis: 5))
    d.push = PushDelivery(mutableContent: true, source: .bestAttempt, reason: "", message: "", extensionIdentifier: "svc",
                          refusedAttachments: [RefusedAttachment(identifier: "x", path: "/tmp/x.png", reason: "ATTACHMENT_CORRUPT",
                                                                 message: "bad", field: "content.attachments[1]")])
    return d
  }

  @Test func pushRequestAndResponse() throws {
    let submission = PushSubmission(payload: Array(#"{"aps":{"alert":"x"}}"#.utf8), identifier: "collapse")
    #expect(try WireCodec.decodePushRequest(WireCodec.encodePushRequest(submission)) == submission)
    #expect(try WireCodec.decodePushRequest(WireCodec.encodePushRequest(PushSubmission(payload: []))) == PushSubmission(payload: []))
    let result = PushResult(delivered: Self.delivered(), replaced: true)
    #expect(try WireCodec.decodePushResponse(WireCodec.encodePushResponse(result)) == result)
  }

  @Test func answers() throws {
    for answer in [ServiceAnswer.content(Self.content()), .failed("no network")] {
      let request = ServiceAnswerRequest(extensionIdentifier: "svc", requestID: 42, answer: answer)
      #expect(try WireCodec.decodeAnswerServiceRequest(WireCodec.encodeAnswerServiceRequest(request)) == request)
    }
    let empty = ServiceAnswerRequest(extensionIdentifier: "svc", requestID: 1, answer: .failed(""))
    #expect(try WireCodec.decodeAnswerServiceRequest(WireCodec.encodeAnswerServiceRequest(empty)).answer == .failed("failed"))
  }

  @Test func serviceRegistrationsAndEvents() throws {
    let registration = ExtensionRegistration(extensionIdentifier: "svc", categoryIdentifiers: [], isService: true)
    #expect(try WireCodec.decodeRegisterExtensionRequest(WireCodec.encodeRegisterExtensionRequest(registration)) == registration)
    let asked = ExtensionEvent(serviceRequest: ServiceRequest(id: 7, request: NotificationRequest(identifier: "p", content: Self.content()),
                                                              deadline: Instant(unixMillis: 30_000)))
    #expect(try WireCodec.decodeExtensionEvent(WireCodec.encodeExtensionEvent(asked)) == asked)
    let expiring = ExtensionEvent(serviceTimeWillExpire: 7)
    #expect(try WireCodec.decodeExtensionEvent(WireCodec.encodeExtensionEvent(expiring)) == expiring)
  }
}
