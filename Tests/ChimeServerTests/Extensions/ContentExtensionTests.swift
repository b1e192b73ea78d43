import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// RegisterExtension through the whole daemon, both transports: an extension is shown the
/// deliveries and responses of its categories, and nothing else.
@Suite(.testTimeLimit) struct ContentExtensionTests {
  static let invite = CategoryTests.invite

  func nextExtensionEvent(_ events: inout AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator) async throws -> ExtensionEvent {
    try await nextMessage(&events)
  }

  @Test(arguments: Transport.allCases) func anExtensionSeesItsCategorysDeliveriesAndResponses(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let ext = try d.client(over: transport)
    try await app.setCategories([Self.invite])
    var stream = ext.registerExtension("org.example.app.invite-ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)

    _ = try await app.add(.tea("plain", in: nil))  // no category: not shown
    var invite = NotificationRequest.tea("lunch", in: nil)
    invite.content.categoryIdentifier = "event-invite"
    _ = try await app.add(invite)
    let delivered = try await nextExtensionEvent(&stream)
    #expect(delivered.delivered?.request.identifier == "lunch")
    #expect(delivered.delivered?.category == Self.invite)

    // The response waits for the extension's answer.
    async let answered = app.respond(to: "lunch", action: "comment", text: "late")
    let asked = try await nextExtensionEvent(&stream)
    #expect(asked.response?.notificationIdentifier == "lunch")
    #expect(asked.response?.userText == "late")
    #expect(asked.responseID != 0)
    try await ext.answerResponse(asked.responseID, extension: "org.example.app.invite-ui", with: .dismissAndForward)
    let result = try await answered
    #expect(result.routedTo == ["org.example.app.invite-ui"])
    #expect(result.removed)
    // Answered once: a second answer is refused.
    let again = await caughtError { try await ext.answerResponse(asked.responseID, extension: "org.example.app.invite-ui", with: .dismiss) }
    #expect(again?.reason == "RESPONSE_NOT_AWAITED" && again?.code == .notFound)

    // A response to a notification outside its categories is not routed to it, nor waits.
    #expect(try await app.respond(to: "plain").routedTo.isEmpty)
  }

  /// A client of `d` with the invite category, notification `lunch` delivered in it, an
  /// extension registered for it and the app's event stream live.
  func setUp(_ d: InProcessDaemon, over transport: Transport) async throws
    -> (app: ChimeClient, ext: ChimeClient, stream: AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator,
        events: AsyncThrowingStream<Event, any Error>.AsyncIterator) {
    let app = try d.client(over: transport)
    let ext = try d.client(over: transport)
    try await app.setCategories([Self.invite])
    var stream = ext.registerExtension("ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)
    var invite = NotificationRequest.tea("lunch", in: nil)
    invite.content.categoryIdentifier = "event-invite"
    _ = try await app.add(invite)
    #expect(try await nextExtensionEvent(&stream).delivered != nil)
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    return (app, ext, stream, events)
  }

  struct AnswerCase: Sendable, CustomTestStringConvertible {
    var answer: ExtensionAnswer
    var removed: Bool
    var forwarded: Bool
    var testDescription: String { "\(answer)" }
  }

  @Test(arguments: [
    AnswerCase(answer: .doNotDismiss, removed: false, forwarded: false),
    AnswerCase(answer: .dismiss, removed: true, forwarded: false),
    AnswerCase(answer: .dismissAndForward, removed: true, forwarded: true),
  ])
  func theExtensionsAnswerDecidesWhatTheResponseDoes(_ c: AnswerCase) async throws {
    let d = try InProcessDaemon()
    let setUp = try await setUp(d, over: .inProcess)
    let app = setUp.app, ext = setUp.ext
    var stream = setUp.stream, events = setUp.events
    async let answered = app.respond(to: "lunch", action: "accept")
    let asked = try await nextExtensionEvent(&stream)
    try await ext.answerResponse(asked.responseID, extension: "ui", with: c.answer)
    #expect(try await answered.removed == c.removed)
    #expect(try await app.allDelivered().isEmpty == c.removed)
    // What the app's subscribers saw, up to a marker.
    _ = try await app.add(.tea("marker", in: 60))
    var kinds: [Event.Kind] = []
    while true {
      let event = try await nextEvent(&events)
      if event.identifiers == ["marker"] { break }
      kinds.append(event.kind)
    }
    #expect(kinds == (c.forwarded ? [.response] : []) + (c.removed ? [.deliveredRemoved] : []))
    if !c.removed {
      // Kept: it can be answered again.
      async let second = app.respond(to: "lunch", action: "decline")
      let again = try await nextExtensionEvent(&stream)
      try await ext.answerResponse(again.responseID, extension: "ui", with: .dismissAndForward)
      #expect(try await second.removed)
    }
  }

  @Test(arguments: Transport.allCases) func noAnswerByTheDeadlineGoesAheadAsIfThereWereNoExtension(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let setUp = try await setUp(d, over: transport)
    let app = setUp.app, ext = setUp.ext
    var stream = setUp.stream, events = setUp.events
    let answered = Task { try await app.respond(to: "lunch", action: "accept") }
    let asked = try await nextExtensionEvent(&stream)
    d.advance(seconds: 4.9)
    d.advance(seconds: 0.1)
    // Bounded: a deadline computed wrong would leave the response waiting for ever.
    #expect(try await withTimeout(10, "the response once its extension's deadline passed") { try await answered.value }.removed)
    #expect(try await nextEvent(&events) { $0.kind == .response }.response?.actionIdentifier == "accept")
    let late = await caughtError { try await ext.answerResponse(asked.responseID, extension: "ui", with: .doNotDismiss) }
    #expect(late?.reason == "RESPONSE_NOT_AWAITED")
  }

  /// Stopping chimed does not lose a response waiting for an extension: it goes ahead and is
  /// committed before chimed exits, and is there after a restart.
  @Test func aResponseWaitingAtShutdownGoesAheadAndIsKept() async throws {
    let d = try InProcessDaemon()
    let setUp = try await setUp(d, over: .socket)
    var stream = setUp.stream
    let app = setUp.app
    let answered = Task { await caughtError { try await app.respond(to: "lunch", action: "accept") } }
    #expect(try await nextExtensionEvent(&stream).responseID != 0)
    d.stop()
    _ = await answered.value  // answered or cut off by the stop; either way the action is kept:
    try d.restart()
    let again = try d.client()
    #expect(try await again.allDelivered().isEmpty)
    var replay = again.subscribe(after: 0).makeAsyncIterator()
    #expect(try await nextEvent(&replay) { $0.kind == .response }.identifiers == ["lunch"])
  }

  @Test func anExtensionThatGoesAwayDoesNotHoldTheResponse() async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: .inProcess)
    try await app.setCategories([Self.invite])
    let connection = try ChimeConnection(socketPath: d.socketPath)
    var stream = ChimeClient(connection: connection, app: "org.example.app").registerExtension("ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)
    var invite = NotificationRequest.tea("lunch", in: nil)
    invite.content.categoryIdentifier = "event-invite"
    _ = try await app.add(invite)
    async let answered = app.respond(to: "lunch", action: "accept")
    _ = try await nextExtensionEvent(&stream)  // delivered
    _ = try await nextExtensionEvent(&stream)  // asked
    connection.close()
    #expect(try await answered.removed)
  }

  @Test(arguments: Transport.allCases) func registrationsAreCheckedAndOnePerIdentifier(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var first = client.registerExtension("ext", categories: ["a"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&first).registered)
    var second = client.registerExtension("ext", categories: ["b"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    let error = await caughtError { _ = try await nextExtensionEvent(&second) }
    #expect(error?.reason == "EXTENSION_ALREADY_REGISTERED" && error?.code == .alreadyExists, "\(String(describing: error))")
    var none = client.registerExtension("other", categories: [], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    let refused = await caughtError { _ = try await nextExtensionEvent(&none) }
    #expect(refused?.reason == "EXTENSION_CATEGORIES_REQUIRED" && refused?.field == "category_identifiers")
    // An older client sends no attributes: no ratio, refused.
    var old = client.registerExtension("old", categories: ["a"], attributes: ExtensionAttributes(initialContentSizeRatio: nil)).makeAsyncIterator()
    let noRatio = await caughtError { _ = try await nextExtensionEvent(&old) }
    #expect(noRatio?.reason == "CONTENT_SIZE_RATIO_REQUIRED" && noRatio?.field == "attributes.initial_content_size_ratio")
    var tinted = client.registerExtension("tinted", categories: ["a"], attributes: ExtensionAttributes(
      initialContentSizeRatio: 1, mediaButton: MediaPlayPauseButton(type: .default, frame: MediaButtonFrame(x: 0, y: 0, width: 9, height: 9), tintColor: "blue")))
      .makeAsyncIterator()
    let badTint = await caughtError { _ = try await nextExtensionEvent(&tinted) }
    #expect(badTint?.reason == "INVALID_TINT_COLOR" && badTint?.field == "attributes.media_button.tint_color")
    // Another app may use the same extension identifier.
    var otherApp = try d.client(app: "org.example.other", over: transport).registerExtension("ext", categories: ["a"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&otherApp).registered)
  }

  @Test func aRegistrationEndsWithItsConnection() async throws {
    let d = try InProcessDaemon()
    let connection = try ChimeConnection(socketPath: d.socketPath)
    var stream = ChimeClient(connection: connection, app: "org.example.app").registerExtension("ext", categories: ["a"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)
    connection.close()
    // The daemon notices the closed connection on its loop; a new registration then succeeds.
    let again = try d.client(over: .socket)
    var registered = false
    for _ in 0..<500 where !registered {
      var attempt = again.registerExtension("ext", categories: ["a"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
      registered = (try? await nextExtensionEvent(&attempt))?.registered == true
      if !registered { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(registered)
  }
}
