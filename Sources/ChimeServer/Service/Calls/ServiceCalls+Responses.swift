import ChimeCore
import ChimeWire

/// Categories, responses, content and service extensions, media buttons and pushes.
extension ServiceCalls {
  func setCategories(_ call: any ServerCall, _ categories: [NotificationCategory], reply: @escaping (Result<Empty, ChimeError>) -> Void) {
    service.apps.setCategories(app: call.app, categories: categories) { reply($0.map { Empty() }) }
  }

  func getCategories(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[NotificationCategory], ChimeError>) -> Void) {
    service.apps.categories(app: call.app, reply: reply)
  }

  func respond(_ call: any ServerCall, _ response: NotificationResponse, reply: @escaping (Result<RespondResult, ChimeError>) -> Void) {
    service.responses.respond(app: call.app, response: response, reply: reply)
  }

  func registerExtension(_ call: any ServerCall, _ registration: ExtensionRegistration,
                         send: @escaping (ExtensionEvent) -> Bool) throws(ChimeError) {
    let app = call.app
    let sink = ExtensionStreamSink(send: send)
    let token = try service.responses.registerExtension(app: app, registration, sink: sink)
    call.onCancel = { [service] in
      _ = sink  // the hub holds the sink weakly; the call keeps it alive
      service.responses.unregisterExtension(app: app, token: token)
    }
  }

  func answerResponse(_ call: any ServerCall, _ request: WireCodec.ExtensionAnswerRequest,
                      reply: @escaping (Result<Empty, ChimeError>) -> Void) throws(ChimeError) {
    try service.responses.answerResponse(app: call.app, extensionIdentifier: request.extensionIdentifier, id: request.responseID,
                                         answer: request.answer)
    reply(.success(Empty()))
  }

  func pressMediaButton(_ call: any ServerCall, _ press: MediaPress, reply: @escaping (Result<String, ChimeError>) -> Void) {
    service.responses.pressMediaButton(app: call.app, press: press, reply: reply)
  }

  func reportMediaPlayback(_ call: any ServerCall, _ report: MediaPlaybackReport, reply: @escaping (Result<Empty, ChimeError>) -> Void) {
    service.responses.reportMediaPlayback(app: call.app, report: report) { reply($0.map { _ in Empty() }) }
  }

  func push(_ call: any ServerCall, _ submission: PushSubmission, reply: @escaping (Result<PushResult, ChimeError>) -> Void) {
    service.intake.push(app: call.app, submission: submission, reply: reply)
  }

  func answerService(_ call: any ServerCall, _ request: ServiceAnswerRequest,
                     reply: @escaping (Result<Empty, ChimeError>) -> Void) throws(ChimeError) {
    try service.intake.answerService(app: call.app, extensionIdentifier: request.extensionIdentifier, id: request.requestID,
                                     answer: request.answer)
    reply(.success(Empty()))
  }
}

/// Sends a content extension's messages as stream messages of its call.
private final class ExtensionStreamSink: ExtensionSink {
  let sendEvent: (ExtensionEvent) -> Bool
  init(send: @escaping (ExtensionEvent) -> Bool) { sendEvent = send }

  func send(_ event: ExtensionEvent) -> Bool {
    sendEvent(event)
  }
}
