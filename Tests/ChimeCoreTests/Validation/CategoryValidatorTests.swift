import ChimeCore
import Testing

/// Every refusal of `CategoryValidator` with its reason and field path, as a table.
@Suite struct CategoryValidatorTests {
  static let invite = NotificationCategory(
    identifier: "event-invite",
    actions: [
      NotificationAction(identifier: "accept", title: "Accept"),
      NotificationAction(identifier: "decline", title: "Decline", options: .destructive),
      NotificationAction(identifier: "comment", title: "Comment", textInput: .init(buttonTitle: "Send", placeholder: "Type here...")),
    ],
    options: .customDismissAction)

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var categories: [NotificationCategory]
    var reason: String
    var field: String
    var testDescription: String { name }
  }

  static func with(_ change: (inout NotificationCategory) -> Void) -> [NotificationCategory] {
    var c = invite
    change(&c)
    return [c]
  }

  static let long = String(repeating: "x", count: 257)

  static let cases: [Case] = [
    Case(name: "empty category id", categories: with { $0.identifier = "" }, reason: "INVALID_IDENTIFIER", field: "categories[0].identifier"),
    Case(name: "long category id", categories: with { $0.identifier = long }, reason: "INVALID_IDENTIFIER", field: "categories[0].identifier"),
    Case(name: "duplicate category id", categories: [invite, invite], reason: "DUPLICATE_CATEGORY_IDENTIFIER", field: "categories[1].identifier"),
    Case(name: "too many categories",
         categories: (0...Limits.categoriesPerAppMax).map { NotificationCategory(identifier: "c\($0)") },
         reason: "TOO_MANY_CATEGORIES", field: "categories"),
    Case(name: "empty action id", categories: with { $0.actions[2].identifier = "" }, reason: "INVALID_IDENTIFIER", field: "categories[0].actions[2].identifier"),
    Case(name: "duplicate action id", categories: with { $0.actions[2].identifier = "accept" }, reason: "DUPLICATE_ACTION_IDENTIFIER",
         field: "categories[0].actions[2].identifier"),
    Case(name: "eleven actions", categories: with { c in c.actions = (0..<11).map { NotificationAction(identifier: "a\($0)", title: "A") } },
         reason: "TOO_MANY_ACTIONS", field: "categories[0].actions"),
    Case(name: "reserved default id", categories: with { $0.actions[1].identifier = "chime.default" }, reason: "RESERVED_ACTION_IDENTIFIER",
         field: "categories[0].actions[1].identifier"),
    Case(name: "reserved dismiss id", categories: with { $0.actions[0].identifier = "chime.dismiss" }, reason: "RESERVED_ACTION_IDENTIFIER",
         field: "categories[0].actions[0].identifier"),
    Case(name: "long title", categories: with { $0.actions[0].title = long }, reason: "FIELD_TOO_LONG", field: "categories[0].actions[0].title"),
    Case(name: "long icon", categories: with { $0.actions[0].icon = long }, reason: "FIELD_TOO_LONG", field: "categories[0].actions[0].icon"),
    Case(name: "long button title", categories: with { $0.actions[2].textInput?.buttonTitle = long }, reason: "FIELD_TOO_LONG",
         field: "categories[0].actions[2].text_input.button_title"),
    Case(name: "long placeholder", categories: with { $0.actions[2].textInput?.placeholder = long }, reason: "FIELD_TOO_LONG",
         field: "categories[0].actions[2].text_input.placeholder"),
    Case(name: "long body placeholder", categories: with { $0.hiddenPreviewsBodyPlaceholder = String(repeating: "x", count: 4097) },
         reason: "FIELD_TOO_LONG", field: "categories[0].hidden_previews_body_placeholder"),
    Case(name: "long summary format", categories: with { $0.summaryFormat = String(repeating: "x", count: 4097) },
         reason: "FIELD_TOO_LONG", field: "categories[0].summary_format"),
    Case(name: "empty intent id", categories: with { $0.intentIdentifiers = ["ok", ""] }, reason: "INVALID_IDENTIFIER",
         field: "categories[0].intent_identifiers[1]"),
    Case(name: "too many intents", categories: with { c in c.intentIdentifiers = (0...32).map { "i\($0)" } }, reason: "TOO_MANY_IDENTIFIERS",
         field: "categories[0].intent_identifiers"),
    Case(name: "NUL in title", categories: with { $0.actions[0].title = "a\u{0}b" }, reason: "FIELD_CONTAINS_NUL", field: "categories[0].actions[0].title"),
  ]

  @Test(arguments: cases) func refuses(_ c: Case) {
    do {
      try CategoryValidator.validate(c.categories)
      Issue.record("expected \(c.reason)")
    } catch {
      #expect(error.reason == c.reason, "\(error)")
      #expect(error.code == .invalidArgument)
      #expect(error.field == c.field, "\(error)")
    }
  }

  @Test func acceptsTheInviteTenActionsAndNone() throws {
    try CategoryValidator.validate([Self.invite])
    try CategoryValidator.validate([])
    try CategoryValidator.validate(Self.with { c in c.actions = (0..<10).map { NotificationAction(identifier: "a\($0)", title: "A") } })
    try CategoryValidator.validate((0..<Limits.categoriesPerAppMax).map { NotificationCategory(identifier: "c\($0)") })
    // The same action id in two categories is fine.
    try CategoryValidator.validate([Self.invite, NotificationCategory(identifier: "other", actions: [NotificationAction(identifier: "accept", title: "OK")])])
  }
}
