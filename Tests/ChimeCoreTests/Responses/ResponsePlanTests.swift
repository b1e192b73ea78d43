import ChimeCore
import Testing

/// Which responses are accepted for a delivered notification, and what an accepted one does.
@Suite struct ResponsePlanTests {
  static let invite = CategoryValidatorTests.invite

  static func delivered(category: NotificationCategory?) -> DeliveredNotification {
    var content = NotificationContent(title: "Lunch?")
    content.categoryIdentifier = "event-invite"
    return DeliveredNotification(request: NotificationRequest(identifier: "n", content: content),
                                 delivered: Instant(unixMillis: 1000), due: Instant(unixMillis: 1000), category: category)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var action: String
    var text: String = ""
    var category: NotificationCategory? = ResponsePlanTests.invite
    var delivered = true
    /// nil: accepted.
    var reason: String?
    var field = ""
    var testDescription: String { name }
  }

  static var noDismiss: NotificationCategory {
    var c = invite
    c.options = []
    return c
  }

  static let cases: [Case] = [
    Case(name: "default", action: "chime.default"),
    Case(name: "default without a category", action: "chime.default", category: nil),
    Case(name: "dismiss with customDismissAction", action: "chime.dismiss"),
    Case(name: "custom action", action: "accept"),
    Case(name: "text action with text", action: "comment", text: "I'll be late"),
    Case(name: "not delivered", action: "chime.default", delivered: false, reason: "NOTIFICATION_NOT_DELIVERED",
         field: "response.notification_identifier"),
    Case(name: "unknown action", action: "maybe", reason: "UNKNOWN_ACTION", field: "response.action_identifier"),
    Case(name: "custom action without a category", action: "accept", category: nil, reason: "UNKNOWN_ACTION", field: "response.action_identifier"),
    Case(name: "text on a plain action", action: "accept", text: "hi", reason: "TEXT_NOT_ACCEPTED", field: "response.user_text"),
    Case(name: "text on default", action: "chime.default", text: "hi", reason: "TEXT_NOT_ACCEPTED", field: "response.user_text"),
    Case(name: "text on dismiss", action: "chime.dismiss", text: "hi", reason: "TEXT_NOT_ACCEPTED", field: "response.user_text"),
    Case(name: "text action without text", action: "comment", reason: "TEXT_REQUIRED", field: "response.user_text"),
    Case(name: "dismiss without customDismissAction", action: "chime.dismiss", category: noDismiss, reason: "DISMISS_NOT_ENABLED",
         field: "response.action_identifier"),
    Case(name: "dismiss without a category", action: "chime.dismiss", category: nil, reason: "DISMISS_NOT_ENABLED",
         field: "response.action_identifier"),
  ]

  @Test(arguments: cases) func check(_ c: Case) {
    let response = NotificationResponse(notificationIdentifier: "n", actionIdentifier: c.action, userText: c.text)
    do {
      try ResponsePlan.check(response, delivered: c.delivered ? Self.delivered(category: c.category) : nil)
      #expect(c.reason == nil, "accepted; expected \(c.reason ?? "")")
    } catch {
      #expect(error.reason == c.reason, "\(error)")
      #expect(error.field == c.field, "\(error)")
      #expect(Reason(named: error.reason)?.code == error.code)
    }
  }

  @Test func validateRefusesBadIdentifiersAndLongText() {
    func reason(_ r: NotificationResponse) -> String? {
      do { try ResponsePlan.validate(r); return nil } catch { return "\(error.reason) \(error.field)" }
    }
    #expect(reason(NotificationResponse(notificationIdentifier: "n")) == nil)
    #expect(reason(NotificationResponse(notificationIdentifier: "")) == "INVALID_IDENTIFIER response.notification_identifier")
    #expect(reason(NotificationResponse(notificationIdentifier: "n", actionIdentifier: "")) == "INVALID_IDENTIFIER response.action_identifier")
    #expect(reason(NotificationResponse(notificationIdentifier: "n", actionIdentifier: "comment", userText: String(repeating: "x", count: 4097)))
      == "FIELD_TOO_LONG response.user_text")
  }

  struct Effect: Sendable, CustomTestStringConvertible {
    var answer: ExtensionAnswer
    var removes: Bool
    var forwards: Bool
    var testDescription: String { "\(answer)" }
  }

  @Test(arguments: [
    Effect(answer: .noExtension, removes: true, forwards: true),
    Effect(answer: .dismissAndForward, removes: true, forwards: true),
    Effect(answer: .dismiss, removes: true, forwards: false),
    Effect(answer: .doNotDismiss, removes: false, forwards: false),
  ])
  func decide(_ e: Effect) {
    for action in ["chime.default", "chime.dismiss", "accept"] {
      let plan = ResponsePlan.decide(NotificationResponse(notificationIdentifier: "n", actionIdentifier: action), extension: e.answer)
      #expect(plan == ResponsePlan(removesDelivered: e.removes, forwardsToApp: e.forwards))
    }
  }
}
