import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// Presentation attributes of content extensions as presenters read them: pending requests
/// show the extension live now, delivered notifications the one live at delivery.
@Suite(.testTimeLimit) struct ExtensionAttributesTests {
  static let attributes = ExtensionAttributes(
    initialContentSizeRatio: 0.5, defaultContentHidden: true, userInteractionEnabled: true,
    mediaButton: MediaPlayPauseButton(type: .overlay, frame: MediaButtonFrame(x: 8, y: 8, width: 44, height: 44), tintColor: "#FF8800"))

  static func invite(_ id: String, in seconds: Double?) -> NotificationRequest {
    var request = NotificationRequest.tea(id, in: seconds)
    request.content.categoryIdentifier = "event-invite"
    return request
  }

  @Test(arguments: Transport.allCases) func pendingShowsTheLiveExtensionDeliveredKeepsItsSnapshot(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let connection = try ChimeConnection(socketPath: d.socketPath)
    var stream = ChimeClient(connection: connection, app: "org.example.app")
      .registerExtension("ui", categories: ["event-invite"], attributes: Self.attributes).makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    // A category has one live content extension: a second one for it is refused.
    let other = try d.client(over: transport)
    var refused = other.registerExtension("z-ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 2))
      .makeAsyncIterator()
    let conflict = await #expect(throws: ChimeError.self) { _ = try await nextMessage(&refused) }
    #expect(conflict?.code == .alreadyExists)
    #expect(conflict?.reason == "EXTENSION_ALREADY_REGISTERED")
    #expect(conflict?.field == "category_identifiers[0]")

    _ = try await app.add(Self.invite("later", in: 10))
    _ = try await app.add(.tea("plain", in: 10))
    let now = try await app.add(Self.invite("now", in: nil))
    #expect(now.delivered?.extensionAttributes == Self.attributes)
    let pending = Dictionary(uniqueKeysWithValues: try await app.allPending().map { ($0.request.identifier, $0) })
    #expect(pending["later"]?.extensionAttributes == Self.attributes)
    #expect(pending["plain"]?.extensionAttributes == nil)

    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    d.advance(seconds: 11)
    let fired = try await nextEvent(&events) { $0.kind == .delivered && $0.identifiers == ["later"] }
    #expect(fired.delivered?.extensionAttributes == Self.attributes)

    // The extension goes away and another takes the category: delivered notifications keep
    // their snapshot, a new pending request shows the one live now.
    connection.close()
    _ = try await app.add(Self.invite("after", in: 10))
    // The daemon notices the closed connection on its loop; then the category is free.
    var registered = false
    var second = other.registerExtension("z-ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 2))
      .makeAsyncIterator()
    for _ in 0..<500 where !registered {
      second = other.registerExtension("z-ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 2))
        .makeAsyncIterator()
      registered = (try? await nextMessage(&second))?.registered == true
      if !registered { try await Task.sleep(for: .milliseconds(10)) }
    }
    #expect(registered)
    let ratio = try await app.allPending().first { $0.request.identifier == "after" }?.extensionAttributes?.initialContentSizeRatio
    #expect(ratio == 2)
    let delivered = Dictionary(uniqueKeysWithValues: try await app.allDelivered().map { ($0.request.identifier, $0) })
    #expect(delivered["now"]?.extensionAttributes == Self.attributes)
    #expect(delivered["later"]?.extensionAttributes == Self.attributes)
  }

  @Test func aDeliveryWithoutALiveExtensionHasNoAttributes() async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    let now = try await app.add(Self.invite("now", in: nil))
    #expect(now.delivered?.extensionAttributes == nil)
    #expect(try await app.allDelivered().first?.extensionAttributes == nil)
  }
}
