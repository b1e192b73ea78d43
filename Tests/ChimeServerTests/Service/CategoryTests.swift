import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// `SetCategories` / `GetCategories` through the whole daemon, both transports.
@Suite(.testTimeLimit) struct CategoryTests {
  static let invite = NotificationCategory(
    identifier: "event-invite",
    actions: [
      NotificationAction(identifier: "accept", title: "Accept", options: [.foreground, .authenticationRequired], icon: "emblem-ok"),
      NotificationAction(identifier: "decline", title: "Decline", options: .destructive),
      NotificationAction(identifier: "comment", title: "Comment", textInput: .init(buttonTitle: "Send", placeholder: "Type here...")),
    ],
    intentIdentifiers: ["intent.reply"],
    options: [.customDismissAction, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle],
    hiddenPreviewsBodyPlaceholder: "An invitation",
    summaryFormat: "%u more invitations")

  static let reminder = NotificationCategory(identifier: "reminder", actions: [NotificationAction(identifier: "snooze", title: "Snooze")])

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

  @Test(arguments: Transport.allCases) func setGetAndReplaceWhole(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    #expect(try await client.categories().isEmpty)
    try await client.setCategories([Self.invite, Self.reminder])
    #expect(try await client.categories() == [Self.invite, Self.reminder])
    // Replaced all at once, in the new order.
    let other = NotificationCategory(identifier: "other")
    try await client.setCategories([other, Self.invite])
    #expect(try await client.categories() == [other, Self.invite])
    try await client.setCategories([])
    #expect(try await client.categories().isEmpty)
  }

  @Test(arguments: Transport.allCases) func refusalsNameTheirFieldAndChangeNothing(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    try await client.setCategories([Self.reminder])
    var dup = Self.invite
    dup.actions[2].identifier = "accept"
    await expectError("DUPLICATE_ACTION_IDENTIFIER", field: "categories[1].actions[2].identifier") {
      try await client.setCategories([Self.reminder, dup])
    }
    await expectError("DUPLICATE_CATEGORY_IDENTIFIER", field: "categories[1].identifier") {
      try await client.setCategories([Self.reminder, Self.reminder])
    }
    var reserved = Self.invite
    reserved.actions[0].identifier = "chime.dismiss"
    await expectError("RESERVED_ACTION_IDENTIFIER", field: "categories[0].actions[0].identifier") { try await client.setCategories([reserved]) }
    var many = Self.invite
    many.actions = (0..<11).map { NotificationAction(identifier: "a\($0)", title: "A") }
    await expectError("TOO_MANY_ACTIONS", field: "categories[0].actions") { try await client.setCategories([many]) }
    var empty = Self.invite
    empty.actions[1].identifier = ""
    await expectError("INVALID_IDENTIFIER", field: "categories[0].actions[1].identifier") { try await client.setCategories([empty]) }
    var long = Self.invite
    long.actions[1].title = String(repeating: "t", count: 300)
    await expectError("FIELD_TOO_LONG", field: "categories[0].actions[1].title") { try await client.setCategories([long]) }
    await expectError("TOO_MANY_CATEGORIES", field: "categories") {
      try await client.setCategories((0...Limits.categoriesPerAppMax).map { NotificationCategory(identifier: "c\($0)") })
    }
    #expect(try await client.categories() == [Self.reminder])
  }

  @Test(arguments: Transport.allCases) func appsDoNotSeeEachOthersCategories(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let a = try d.client(app: "org.example.a", over: transport)
    let b = try d.client(app: "org.example.b", over: transport)
    try await a.setCategories([Self.invite])
    #expect(try await b.categories().isEmpty)
    try await b.setCategories([Self.reminder])
    #expect(try await a.categories() == [Self.invite])
    #expect(try await b.categories() == [Self.reminder])
  }

  @Test func categoriesSurviveARestart() async throws {
    let d = try InProcessDaemon()
    try await d.client().setCategories([Self.invite, Self.reminder])
    try d.restart()
    #expect(try await d.client().categories() == [Self.invite, Self.reminder])
  }

  /// The snapshot is taken at delivery, for immediate deliveries and for fires, and holds when
  /// the categories are replaced later, across a restart too.
  @Test(arguments: Transport.allCases) func deliveredNotificationsKeepTheirCategoryAsDelivered(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try await client.setCategories([Self.invite])
    var now = NotificationRequest.tea("now", in: nil)
    now.content.categoryIdentifier = "event-invite"
    let added = try await client.add(now)
    #expect(added.delivered?.category == Self.invite)
    var later = NotificationRequest.tea("later", in: 10)
    later.content.categoryIdentifier = "event-invite"
    _ = try await client.add(later)
    var none = NotificationRequest.tea("unknown-category", in: nil)
    none.content.categoryIdentifier = "nope"
    #expect(try await client.add(none).delivered?.category == nil)

    // Replaced before the fire: the fire takes the category as it is at delivery.
    var changed = Self.invite
    changed.actions = [NotificationAction(identifier: "maybe", title: "Maybe")]
    try await client.setCategories([changed])
    d.advance(seconds: 10)
    let fired = try await nextEvent(&events) { $0.kind == .delivered && $0.identifiers == ["later"] }
    #expect(fired.delivered?.category == changed)
    try await client.setCategories([])

    let delivered = Dictionary(uniqueKeysWithValues: try await client.allDelivered().map { ($0.request.identifier, $0) })
    #expect(delivered["now"]?.category == Self.invite)
    #expect(delivered["later"]?.category == changed)
    #expect(delivered["unknown-category"]?.category == nil)

    try d.restart()
    let again = Dictionary(uniqueKeysWithValues: try await d.client(over: transport).allDelivered().map { ($0.request.identifier, $0) })
    #expect(again["now"]?.category == Self.invite)
    #expect(again["later"]?.category == changed)
  }
}
