import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// `Respond` through the whole daemon, both transports: what is accepted, what is refused,
/// the `response` event and the removal from the delivered list.
@Suite(.testTimeLimit) struct ResponseTests {
  static let invite = CategoryTests.invite

  /// A client of `d` with the invite category set and notification `id` delivered in it.
  func invited(_ d: InProcessDaemon, over transport: Transport, app: String = "org.example.app", ids: [String] = ["lunch"],
               category: String = "event-invite") async throws -> ChimeClient {
    let client = try d.client(app: app, over: transport)
    try await client.setCategories([Self.invite, NotificationCategory(identifier: "plain", actions: [NotificationAction(identifier: "ok", title: "OK")])])
    for id in ids {
      var request = NotificationRequest.tea(id, title: "Lunch at noon?", in: nil)
      request.content.categoryIdentifier = category
      _ = try await client.add(request)
    }
    return client
  }

  func expectError(_ reason: String, field: String, code: StatusCode = .invalidArgument, _ body: () async throws -> Void,
                   sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let error = await caughtError(body) else {
      Issue.record("expected \(reason)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
  }

  @Test(arguments: Transport.allCases) func eachKindOfResponseReachesSubscribersAndRemovesTheNotification(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: transport, ids: ["opened", "dismissed", "accepted", "commented"])
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let answers: [(id: String, action: String, text: String)] = [
      ("opened", NotificationAction.defaultIdentifier, ""), ("dismissed", NotificationAction.dismissIdentifier, ""),
      ("accepted", "accept", ""), ("commented", "comment", "Running late"),
    ]
    for answer in answers {
      d.advance(seconds: 1)
      let result = try await client.respond(to: answer.id, action: answer.action, text: answer.text)
      #expect(result.removed && result.routedTo.isEmpty)
      let event = try await nextEvent(&events) { $0.kind == .response }
      #expect(event.identifiers == [answer.id])
      #expect(event.response?.notificationIdentifier == answer.id)
      #expect(event.response?.actionIdentifier == answer.action)
      #expect(event.response?.userText == answer.text)
      #expect(event.response?.at == d.clock.now())
      let removed = try await nextEvent(&events)
      #expect(removed.kind == .deliveredRemoved && removed.identifiers == [answer.id])
      #expect(removed.cursor > event.cursor)
    }
    #expect(try await client.allDelivered().isEmpty)
  }

  @Test(arguments: Transport.allCases) func anEmptyActionMeansTheDefault(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await client.respond(to: "lunch", action: "")
    #expect(try await nextEvent(&events) { $0.kind == .response }.response?.actionIdentifier == "chime.default")
  }

  @Test(arguments: Transport.allCases) func refusalsSayWhyAndChangeNothing(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: transport)
    var plain = NotificationRequest.tea("plain", in: nil)
    plain.content.categoryIdentifier = "plain"
    _ = try await client.add(plain)
    _ = try await client.add(.tea("pending", in: 60))

    await expectError("NOTIFICATION_NOT_DELIVERED", field: "response.notification_identifier", code: .notFound) {
      try await client.respond(to: "nope")
    }
    await expectError("NOTIFICATION_NOT_DELIVERED", field: "response.notification_identifier", code: .notFound) {
      try await client.respond(to: "pending")
    }
    await expectError("UNKNOWN_ACTION", field: "response.action_identifier") { try await client.respond(to: "lunch", action: "maybe") }
    await expectError("UNKNOWN_ACTION", field: "response.action_identifier") { try await client.respond(to: "lunch", action: "ok") }
    await expectError("TEXT_NOT_ACCEPTED", field: "response.user_text") { try await client.respond(to: "lunch", action: "accept", text: "yes") }
    await expectError("TEXT_NOT_ACCEPTED", field: "response.user_text") { try await client.respond(to: "lunch", text: "yes") }
    await expectError("TEXT_REQUIRED", field: "response.user_text") { try await client.respond(to: "lunch", action: "comment") }
    await expectError("DISMISS_NOT_ENABLED", field: "response.action_identifier", code: .failedPrecondition) {
      try await client.respond(to: "plain", action: NotificationAction.dismissIdentifier)
    }
    await expectError("INVALID_IDENTIFIER", field: "response.notification_identifier") { try await client.respond(to: "") }
    #expect(Set(try await client.allDelivered().map(\.request.identifier)) == ["lunch", "plain"])

    // Answered once, it is gone: a second answer is refused.
    try await client.respond(to: "lunch", action: "accept")
    await expectError("NOTIFICATION_NOT_DELIVERED", field: "response.notification_identifier", code: .notFound) {
      try await client.respond(to: "lunch", action: "accept")
    }
  }

  /// Replacing the categories after delivery changes nothing about what can be answered.
  @Test(arguments: Transport.allCases) func theSnapshotDecidesWhatCanBeAnswered(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: transport, ids: ["a", "b"])
    try await client.setCategories([NotificationCategory(identifier: "event-invite", actions: [NotificationAction(identifier: "maybe", title: "Maybe")])])
    await expectError("UNKNOWN_ACTION", field: "response.action_identifier") { try await client.respond(to: "a", action: "maybe") }
    try await client.respond(to: "a", action: "decline")
    try await client.setCategories([])
    try await client.respond(to: "b", action: "comment", text: "ok")
  }

  @Test(arguments: Transport.allCases) func appsCannotAnswerEachOthersNotifications(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let a = try await invited(d, over: transport, app: "org.example.a")
    let b = try d.client(app: "org.example.b", over: transport)
    var bEvents = b.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&bEvents) { $0.kind == .subscribed }
    var aEvents = a.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&aEvents) { $0.kind == .subscribed }
    await expectError("NOTIFICATION_NOT_DELIVERED", field: "response.notification_identifier", code: .notFound) {
      try await b.respond(to: "lunch", action: "accept")
    }
    try await a.respond(to: "lunch", action: "accept")
    #expect(try await nextEvent(&aEvents) { $0.kind == .response }.identifiers == ["lunch"])
    // b's stream got nothing: its next event is the one b causes itself.
    _ = try await b.add(.tea("b-own", in: 60))
    #expect(try await nextEvent(&bEvents).identifiers == ["b-own"])
  }

  /// Two answers to one notification at once: exactly one is accepted (the other finds it gone),
  /// and subscribers see one response.
  @Test(arguments: Transport.allCases) func concurrentAnswersAcceptExactlyOne(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    async let first = caughtError { try await client.respond(to: "lunch", action: "accept") }
    async let second = caughtError { try await client.respond(to: "lunch", action: "decline") }
    let errors = await [first, second]
    #expect(errors.filter { $0 == nil }.count == 1)
    #expect(errors.compactMap { $0?.reason } == ["NOTIFICATION_NOT_DELIVERED"])
    _ = try await nextEvent(&events) { $0.kind == .response }
    _ = try await client.add(.tea("marker", in: 60))
    let next = try await nextEvent(&events) { $0.kind != .deliveredRemoved }
    #expect(next.kind == .pendingAdded, "a second response event was sent")
  }

  @Test func responsesAndSnapshotsSurviveARestart() async throws {
    let d = try InProcessDaemon()
    let client = try await invited(d, over: .inProcess, ids: ["a", "b"])
    try await client.respond(to: "a", action: "accept")
    try await client.setCategories([])
    try d.restart()
    let again = try d.client()
    #expect(try await again.allDelivered().map(\.request.identifier) == ["b"])
    try await again.respond(to: "b", action: "comment", text: "after a restart")
    var replay = again.subscribe(after: 0).makeAsyncIterator()
    let responses = [try await nextEvent(&replay) { $0.kind == .response }, try await nextEvent(&replay) { $0.kind == .response }]
    #expect(responses.map(\.identifiers) == [["a"], ["b"]])
    #expect(responses[1].response?.userText == "after a restart")
  }
}
