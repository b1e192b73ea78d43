import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// RegisterExtension through the whole daemon, both transports: an extension is shown the
/// deliveries and responses of its categories, and nothing else.
@Suite struct ContentExtensionTests {
  static let invite = CategoryTests.invite

  func nextExtensionEvent(_ events: inout AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator) async throws -> ExtensionEvent {
    try await nextMessage(&events)
  }

  @Test(arguments: Transport.allCases) func anExtensionSeesItsCategorysDeliveriesAndResponses(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let ext = try d.client(over: transport)
    try await app.setCategories([Self.invite])
    var stream = ext.registerExtension("org.example.app.invite-ui", categories: ["event-invite"]).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)

    _ = try await app.add(.tea("plain", in: nil))  // no category: not shown
    var invite = NotificationRequest.tea("lunch", in: nil)
    invite.content.categoryIdentifier = "event-invite"
    _ = try await app.add(invite)
    let delivered = try await nextExtensionEvent(&stream)
    #expect(delivered.delivered?.request.identifier == "lunch")
    #expect(delivered.delivered?.category == Self.invite)

    let result = try await app.respond(to: "lunch", action: "comment", text: "late")
    #expect(result.routedTo == ["org.example.app.invite-ui"])
    #expect(result.removed)
    let response = try await nextExtensionEvent(&stream)
    #expect(response.response?.notificationIdentifier == "lunch")
    #expect(response.response?.userText == "late")

    // A response to a notification outside its categories is not routed to it.
    #expect(try await app.respond(to: "plain").routedTo.isEmpty)
  }

  @Test(arguments: Transport.allCases) func registrationsAreCheckedAndOnePerIdentifier(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var first = client.registerExtension("ext", categories: ["a"]).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&first).registered)
    var second = client.registerExtension("ext", categories: ["b"]).makeAsyncIterator()
    let error = await caughtError { _ = try await nextExtensionEvent(&second) }
    #expect(error?.reason == "EXTENSION_ALREADY_REGISTERED" && error?.code == .alreadyExists, "\(String(describing: error))")
    var none = client.registerExtension("other", categories: []).makeAsyncIterator()
    let refused = await caughtError { _ = try await nextExtensionEvent(&none) }
    #expect(refused?.reason == "EXTENSION_CATEGORIES_REQUIRED" && refused?.field == "category_identifiers")
    // Another app may use the same extension identifier.
    var otherApp = try d.client(app: "org.example.other", over: transport).registerExtension("ext", categories: ["a"]).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&otherApp).registered)
  }

  @Test func aRegistrationEndsWithItsConnection() async throws {
    let d = try InProcessDaemon()
    let connection = try ChimeConnection(socketPath: d.socketPath)
    var stream = ChimeClient(connection: connection, app: "org.example.app").registerExtension("ext", categories: ["a"]).makeAsyncIterator()
    #expect(try await nextExtensionEvent(&stream).registered)
    connection.close()
    // The daemon notices the closed connection on its loop; a new registration then succeeds.
    let again = try d.client(over: .socket)
    var registered = false
    for _ in 0..<500 where !registered {
      var attempt = again.registerExtension("ext", categories: ["a"]).makeAsyncIterator()
      registered = (try? await nextExtensionEvent(&attempt))?.registered == true
      if !registered { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(registered)
  }
}
