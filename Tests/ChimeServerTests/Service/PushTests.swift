import ChimeConfig
import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// Push and service extensions through the whole daemon, in-process and over the socket: a
/// pushed payload is delivered at once; a mutable one goes to the app's live service extension
/// first, and whatever happens there the user gets the notification.
@Suite(.testTimeLimit) struct PushTests {
  static let mutable = #"{"aps":{"alert":{"title":"Original","body":"Sent"},"mutable-content":1},"media-url":"https://example.com/cat.png"}"#

  func bytes(_ json: String) -> [UInt8] { Array(json.utf8) }

  func next(_ stream: inout AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator) async throws -> ExtensionEvent {
    try await nextMessage(&stream)
  }

  /// A service extension `svc` of `client`'s app, registered.
  func service(_ client: ChimeClient, _ id: String = "svc") async throws -> AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator {
    var stream = client.registerServiceExtension(id).makeAsyncIterator()
    #expect(try await next(&stream).registered)
    return stream
  }

  @Test(arguments: Transport.allCases) func aPushIsDeliveredAtOnceAndItsCollapseIDReplacesTheEarlierOne(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let first = try await app.push(bytes(#"{"aps":{"alert":{"title":"Score","body":"1-0"},"thread-id":"m1"},"match":9}"#), identifier: "score")
    #expect(first.delivered.request.identifier == "score" && first.delivered.request.trigger == nil)
    #expect(first.delivered.request.content.title == "Score" && first.delivered.request.content.threadIdentifier == "m1")
    #expect(first.delivered.request.content.userInfoJSON == #"{"match":9}"#)
    #expect(first.delivered.push == PushDelivery(mutableContent: false))
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(event.note.contains("pushed; original content delivered") && event.delivered?.push?.source == .original)

    _ = try await app.push(bytes(#"{"aps":{"alert":{"title":"Score","body":"2-0"}}}"#), identifier: "score")
    let delivered = try await app.allDelivered()
    #expect(delivered.map(\.request.content.body) == ["2-0"], "the collapse id replaced the earlier one")
    #expect(delivered.first?.push?.source == .original, "stored with the notification")

    let generated = try await app.push(bytes(#"{"aps":{"alert":"no id"}}"#))
    #expect(!generated.delivered.request.identifier.isEmpty)
  }

  @Test(arguments: Transport.allCases) func malformedPushesAreRefusedWithTheFieldPath(over transport: Transport) async throws {
    let d = try InProcessDaemon(tweak: { $0.limits.pushPayloadMaxBytes = 100 })
    let app = try d.client(over: transport)
    let cases: [(String, String, String)] = [
      ("{", "INVALID_PUSH_PAYLOAD", "payload"),
      (#"{"aps":[]}"#, "INVALID_PUSH_PAYLOAD", "aps"),
      (#"{"aps":{"alert":{"title":1}}}"#, "INVALID_PUSH_PAYLOAD", "aps.alert.title"),
      (#"{"aps":{"alert":"x","badge":"1"}}"#, "INVALID_PUSH_PAYLOAD", "aps.badge"),
      (#"{"aps":{"alert":"x","interruption-level":"loud"}}"#, "UNKNOWN_INTERRUPTION_LEVEL", "aps.interruption-level"),
      (#"{"aps":{"alert":"x","badge":-1}}"#, "INVALID_BADGE", "aps.badge"),
      (#"{"aps":{}}"#, "NOTIFICATION_INVALID_NO_CONTENT", "aps"),
      (#"{"aps":{"alert":"\#(String(repeating: "x", count: 100))"}}"#, "PUSH_PAYLOAD_TOO_LARGE", "payload"),
    ]
    for (json, reason, field) in cases {
      let error = await caughtError { _ = try await app.push(bytes(json)) }
      #expect(error?.reason == reason && error?.field == field && error?.code == .invalidArgument, "\(json): \(String(describing: error))")
    }
    #expect(try await app.allDelivered().isEmpty)
  }

  @Test func aDeniedAppCannotPush() async throws {
    let d = try InProcessDaemon(tweak: { $0.policy.authorization = .askDenies })
    let app = try d.client()
    let error = await caughtError { _ = try await app.push(bytes(#"{"aps":{"alert":"x"}}"#)) }
    #expect(error?.reason == "NOTIFICATIONS_NOT_ALLOWED" && error?.code == .permissionDenied)
  }

  @Test(arguments: Transport.allCases) func mutableWithNoExtensionDeliversTheOriginal(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let result = try await app.push(bytes(Self.mutable))
    #expect(result.delivered.request.content.title == "Original")
    #expect(result.delivered.push?.mutableContent == true && result.delivered.push?.reason == "SERVICE_EXTENSION_NOT_RUNNING")
  }

  /// Apple's rule: service extensions see mutable pushes only — not a push without
  /// mutable-content, and never a local request.
  @Test(arguments: Transport.allCases) func onlyMutablePushesReachTheServiceExtension(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    var stream = try await service(try d.client(over: transport))
    _ = try await app.add(.tea("local", in: nil))
    let plain = try await app.push(bytes(#"{"aps":{"alert":"plain"}}"#), identifier: "plain")
    #expect(plain.delivered.push == PushDelivery(mutableContent: false))
    async let pushed = app.push(bytes(Self.mutable), identifier: "mutable")
    let asked = try await next(&stream)
    #expect(asked.serviceRequest?.request.identifier == "mutable", "the first thing the extension is sent")
    try await app.answerService(try #require(asked.serviceRequest?.id), extension: "svc", with: .failed(""))
    _ = try await pushed
  }

  @Test(arguments: Transport.allCases) func theExtensionCanReplaceEveryField(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    _ = try await app.requestAuthorization([.alert, .sound, .badge, .timeSensitive])
    let ext = try d.client(over: transport)
    var stream = try await service(ext)
    async let pushed = app.push(bytes(Self.mutable), identifier: "p")
    let asked = try #require(try await next(&stream).serviceRequest)
    #expect(asked.request.content.title == "Original" && asked.request.content.userInfoJSON.contains("media-url"))
    #expect(asked.deadline == d.clock.now().adding(millis: 30_000))
    var new = NotificationContent(title: "T", subtitle: "S", body: "B")
    new.badge = 7
    new.sound = .default
    new.userInfoJSON = #"{"k":1}"#
    new.categoryIdentifier = "cat"
    new.threadIdentifier = "thread"
    new.targetContentIdentifier = "target"
    new.interruptionLevel = .passive
    new.relevanceScore = 0.5
    new.summaryArgument = "sum"
    new.launchImageName = "launch.png"
    var loc = AlertLocalization()
    loc.locKey = "KEY"
    new.alertLocalization = loc
    try await ext.answerService(asked.id, extension: "svc", with: .content(new))
    let result = try await pushed
    #expect(result.delivered.request.content == new)
    #expect(result.delivered.push == PushDelivery(mutableContent: true, source: .extension, extensionIdentifier: "svc"))
    #expect(try await app.allDelivered().first?.request.content == new)
    let late = await caughtError { try await ext.answerService(asked.id, extension: "svc", with: .content(new)) }
    #expect(late?.reason == "SERVICE_REQUEST_NOT_AWAITED" && late?.code == .notFound)
  }

  @Test(arguments: Transport.allCases) func invalidContentFromTheExtensionDeliversTheOriginal(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    var stream = try await service(app)
    async let pushed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    var bad = NotificationContent(title: "T")
    bad.relevanceScore = 3
    try await app.answerService(asked.id, extension: "svc", with: .content(bad))
    let result = try await pushed
    #expect(result.delivered.request.content.title == "Original" && result.delivered.push?.reason == "INVALID_RELEVANCE_SCORE")
  }

  @Test func anExtensionsAttachmentsAreCheckedAsAtAddAndABadOneIsLeftOut() async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    var stream = try await service(app)
    let good = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("ext/cat.png"))
    let png = MediaCorpus.data("images/png-rgb.png")
    let corrupt = MediaCorpus.write(png.prefix(png.count - 20), to: d.directory.file("ext/broken.png"))
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    async let pushed = app.push(bytes(Self.mutable), identifier: "p")
    let asked = try #require(try await next(&stream).serviceRequest)
    var new = asked.request.content
    new.title = "With a picture"
    new.attachments = [Attachment(identifier: "cat", path: good), Attachment(identifier: "broken", path: corrupt)]
    try await app.answerService(asked.id, extension: "svc", with: .content(new))
    let result = try await pushed
    let attachments = result.delivered.request.content.attachments
    #expect(attachments.map(\.identifier) == ["cat"] && attachments.first?.info?.type == "public.png")
    #expect(result.delivered.request.content.title == "With a picture" && result.delivered.push?.source == .extension)
    let refused = try #require(result.delivered.push?.refusedAttachments.first)
    #expect(refused.identifier == "broken" && refused.reason == "ATTACHMENT_CORRUPT" && refused.field == "content.attachments[1]" && refused.path == corrupt)
    #expect(!MediaCorpus.exists(good), "moved into the store") 
    #expect(MediaCorpus.exists(corrupt), "a refused file stays where it was")
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(event.note.contains("ATTACHMENT_CORRUPT"), "\(event.note)")
  }

  @Test func anAttachmentOverTheQuotaIsLeftOut() async throws {
    let png = MediaCorpus.data("images/png-rgb.png")
    let d = try InProcessDaemon(tweak: { $0.limits.attachmentQuotaBytes = Int64(png.count / 2) })
    let app = try d.client()
    var stream = try await service(app)
    let big = MediaCorpus.copy("images/png-rgb.png", to: d.directory.file("ext/big.png"))
    async let pushed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    var new = asked.request.content
    new.attachments = [Attachment(path: big)]
    try await app.answerService(asked.id, extension: "svc", with: .content(new))
    let result = try await pushed
    #expect(result.delivered.request.content.attachments.isEmpty)
    #expect(result.delivered.push?.refusedAttachments.map(\.reason) == ["ATTACHMENT_QUOTA_EXCEEDED"])
    #expect(MediaCorpus.exists(big))
  }

  @Test(arguments: Transport.allCases) func atTheDeadlineTheExtensionIsWarnedThenTheOriginalIsDelivered(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    var stream = try await service(app)
    async let pushed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    d.advance(seconds: 29.9)
    d.advance(seconds: 0.1)
    #expect(try await next(&stream).serviceTimeWillExpire == asked.id)
    d.advance(seconds: 1)
    let result = try await pushed
    #expect(result.delivered.request.content.title == "Original" && result.delivered.push?.reason == "SERVICE_EXTENSION_TIMED_OUT")
  }

  @Test(arguments: Transport.allCases) func aBestAttemptWithinTheGraceIsDelivered(over transport: Transport) async throws {
    let d = try InProcessDaemon(tweak: { $0.limits.serviceExtensionTimeoutMillis = 2_000; $0.limits.serviceExtensionGraceMillis = 500 })
    let app = try d.client(over: transport)
    var stream = try await service(app)
    async let pushed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    d.advance(seconds: 2)
    #expect(try await next(&stream).serviceTimeWillExpire == asked.id)
    d.advance(seconds: 0.4)
    try await app.answerService(asked.id, extension: "svc", with: .content(NotificationContent(title: "Best attempt")))
    let result = try await pushed
    #expect(result.delivered.request.content.title == "Best attempt" && result.delivered.push?.source == .bestAttempt)
  }

  @Test func anExtensionThatFailsOrCrashesGetsTheOriginalDelivered() async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    var stream = try await service(app)
    async let failed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    try await app.answerService(asked.id, extension: "svc", with: .failed("could not download"))
    let f = try await failed
    #expect(f.delivered.push?.reason == "SERVICE_EXTENSION_FAILED" && f.delivered.push?.message == "could not download")

    // Crashes mid-work: its connection ends with the request unanswered.
    let connection = try ChimeConnection(socketPath: d.socketPath)
    var crashing = try await service(ChimeClient(connection: connection, app: "org.example.other"), "crashy")
    let other = try d.client(app: "org.example.other")
    async let crashed = other.push(bytes(Self.mutable))
    #expect(try await next(&crashing).serviceRequest != nil)
    connection.close()
    let c = try await crashed
    #expect(c.delivered.request.content.title == "Original" && c.delivered.push?.reason == "SERVICE_EXTENSION_DISCONNECTED")
    #expect(c.delivered.push?.extensionIdentifier == "crashy")
  }

  /// Stopping chimed does not lose a push waiting for its extension: the original is delivered
  /// and committed before chimed exits, and is there after a restart.
  @Test func aPushWaitingAtShutdownIsDeliveredAndKept() async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    var stream = try await service(try d.client())
    let pushed = Task { await caughtError { _ = try await app.push(bytes(Self.mutable), identifier: "waiting") } }
    #expect(try await next(&stream).serviceRequest != nil)
    d.stop()
    _ = await pushed.value  // answered or cut off by the stop; either way it is delivered:
    try d.restart()
    let kept = try await d.client().allDelivered()
    #expect(kept.map(\.request.identifier) == ["waiting"])
    #expect(kept.first?.push?.reason == "SERVICE_EXTENSION_DISCONNECTED" && kept.first?.request.content.title == "Original")
  }

  @Test(arguments: Transport.allCases) func oneServiceExtensionPerApp(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    // Held: a registration lives as long as its stream.
    let first = try await service(client, "first")
    var second = client.registerServiceExtension("second").makeAsyncIterator()
    let error = await caughtError { _ = try await next(&second) }
    #expect(error?.reason == "EXTENSION_ALREADY_REGISTERED" && error?.field == "service" && error?.code == .alreadyExists, "\(String(describing: error))")
    let others = try await service(try d.client(app: "org.example.other", over: transport), "first")  // another app's is its own
    // A content extension of the same app is not a second service extension.
    var content = client.registerExtension("ui", categories: ["c"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await next(&content).registered)
    withExtendedLifetime((first, others)) {}
  }

  /// A registration ends with its connection: the app may register a service extension again,
  /// and its pushes go to the new one.
  @Test func aServiceExtensionsRegistrationEndsWithItsConnection() async throws {
    let d = try InProcessDaemon()
    let connection = try ChimeConnection(socketPath: d.socketPath)
    let gone = try await service(ChimeClient(connection: connection, app: "org.example.app"), "gone")
    connection.close()
    let app = try d.client()
    // The daemon sees the end of the connection on its loop; a few tries at most.
    var registered: AsyncThrowingStream<ExtensionEvent, any Error>.AsyncIterator?
    for _ in 0..<100 where registered == nil {
      var attempt = app.registerServiceExtension("again").makeAsyncIterator()
      if let event = try? await next(&attempt), event.registered { registered = attempt }
    }
    var stream = try #require(registered, "still refused after the first extension's connection closed")
    async let pushed = app.push(bytes(Self.mutable))
    let asked = try #require(try await next(&stream).serviceRequest)
    try await app.answerService(asked.id, extension: "again", with: .content(NotificationContent(title: "From the new one")))
    let result = try await pushed
    #expect(result.delivered.request.content.title == "From the new one" && result.delivered.push?.extensionIdentifier == "again")
    withExtendedLifetime(gone) {}
  }

  /// Both extension kinds on one notification, in order: the service extension rewrites it
  /// first, and the category's content extension is shown what was delivered.
  @Test(arguments: Transport.allCases) func serviceFirstThenTheContentExtensionSeesTheDelivery(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    try await app.setCategories([CategoryTests.invite])
    var content = app.registerExtension("ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await next(&content).registered)
    var stream = try await service(app)
    async let pushed = app.push(bytes(#"{"aps":{"alert":"Lunch?","category":"event-invite","mutable-content":1}}"#), identifier: "lunch")
    let asked = try #require(try await next(&stream).serviceRequest)
    var new = asked.request.content
    new.title = "Lunch with Ann"
    try await app.answerService(asked.id, extension: "svc", with: .content(new))
    let shown = try #require(try await next(&content).delivered)
    #expect(shown.request.identifier == "lunch" && shown.request.content.title == "Lunch with Ann" && shown.push?.source == .extension)
    #expect(shown.category == CategoryTests.invite && shown.extensionAttributes?.initialContentSizeRatio == 1)
    _ = try await pushed
  }
}
