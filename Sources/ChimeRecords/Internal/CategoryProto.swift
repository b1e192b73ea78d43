package import CChimeProto
package import ChimeCore

/// Categories, actions and responses between `CChimeProto` structs and `ChimeCore` values.
package enum CategoryProto {
  package typealias Path = () -> String

  package static func build(_ c: NotificationCategory, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Category> {
    let m = arena.message(chime__v1__category__init)
    arena.assign(&m.pointee.identifier, c.identifier)
    arena.assign(&m.pointee.actions, count: &m.pointee.n_actions, c.actions) { build($0, in: arena) }
    arena.assign(&m.pointee.intent_identifiers, count: &m.pointee.n_intent_identifiers, c.intentIdentifiers)
    arena.assign(&m.pointee.hidden_previews_body_placeholder, c.hiddenPreviewsBodyPlaceholder)
    m.pointee.custom_dismiss_action = c.options.contains(.customDismissAction) ? 1 : 0
    m.pointee.hidden_previews_show_title = c.options.contains(.hiddenPreviewsShowTitle) ? 1 : 0
    m.pointee.hidden_previews_show_subtitle = c.options.contains(.hiddenPreviewsShowSubtitle) ? 1 : 0
    arena.assign(&m.pointee.summary_format, c.summaryFormat)
    arena.assign(&m.pointee.snooze_seconds, count: &m.pointee.n_snooze_seconds, c.snoozeSeconds)
    return m
  }

  package static func build(_ a: NotificationAction, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Action> {
    let m = arena.message(chime__v1__action__init)
    arena.assign(&m.pointee.identifier, a.identifier)
    arena.assign(&m.pointee.title, a.title)
    m.pointee.authentication_required = a.options.contains(.authenticationRequired) ? 1 : 0
    m.pointee.destructive = a.options.contains(.destructive) ? 1 : 0
    m.pointee.foreground = a.options.contains(.foreground) ? 1 : 0
    if let input = a.textInput {
      let t = arena.message(chime__v1__text_input__init)
      arena.assign(&t.pointee.button_title, input.buttonTitle)
      arena.assign(&t.pointee.placeholder, input.placeholder)
      m.pointee.text_input = t
    }
    arena.assign(&m.pointee.icon, a.icon)
    return m
  }

  package static func build(_ r: NotificationResponse, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__NotificationResponse> {
    let m = arena.message(chime__v1__notification_response__init)
    arena.assign(&m.pointee.notification_identifier, r.notificationIdentifier)
    arena.assign(&m.pointee.action_identifier, r.actionIdentifier)
    arena.assign(&m.pointee.user_text, r.userText)
    m.pointee.at_unix_ms = r.at.unixMillis
    m.pointee.snooze_seconds = r.snoozeSeconds
    return m
  }

  package static func category(_ m: Chime__V1__Category, _ path: @autoclosure Path) throws(ChimeError) -> NotificationCategory {
    var options: NotificationCategory.Options = []
    if m.custom_dismiss_action != 0 { options.insert(.customDismissAction) }
    if m.hidden_previews_show_title != 0 { options.insert(.hiddenPreviewsShowTitle) }
    if m.hidden_previews_show_subtitle != 0 { options.insert(.hiddenPreviewsShowSubtitle) }
    var actions: [NotificationAction] = []
    if let list = m.actions {
      for i in 0..<m.n_actions {
        guard let a = list[i]?.pointee else { continue }
        actions.append(try action(a, "\(path()).actions[\(i)]"))
      }
    }
    var category = NotificationCategory(
      identifier: try ProtoMessage.text(m.identifier, "\(path()).identifier"),
      actions: actions,
      intentIdentifiers: try ProtoMessage.texts(m.intent_identifiers, count: m.n_intent_identifiers, "\(path()).intent_identifiers"),
      options: options,
      hiddenPreviewsBodyPlaceholder: try ProtoMessage.text(m.hidden_previews_body_placeholder, "\(path()).hidden_previews_body_placeholder"),
      summaryFormat: try ProtoMessage.text(m.summary_format, "\(path()).summary_format"))
    // Bounded by the frame; CategoryValidator bounds the count and each value.
    if let list = m.snooze_seconds { category.snoozeSeconds = (0..<m.n_snooze_seconds).map { list[$0] } }
    return category
  }

  package static func action(_ m: Chime__V1__Action, _ path: @autoclosure Path) throws(ChimeError) -> NotificationAction {
    var options: NotificationAction.Options = []
    if m.authentication_required != 0 { options.insert(.authenticationRequired) }
    if m.destructive != 0 { options.insert(.destructive) }
    if m.foreground != 0 { options.insert(.foreground) }
    var input: NotificationAction.TextInput?
    if let t = m.text_input?.pointee {
      input = NotificationAction.TextInput(buttonTitle: try ProtoMessage.text(t.button_title, "\(path()).text_input.button_title"),
                                           placeholder: try ProtoMessage.text(t.placeholder, "\(path()).text_input.placeholder"))
    }
    return NotificationAction(identifier: try ProtoMessage.text(m.identifier, "\(path()).identifier"),
                              title: try ProtoMessage.text(m.title, "\(path()).title"),
                              options: options,
                              icon: try ProtoMessage.text(m.icon, "\(path()).icon"),
                              textInput: input)
  }

  package static func response(_ m: Chime__V1__NotificationResponse, _ path: @autoclosure Path) throws(ChimeError) -> NotificationResponse {
    var response = NotificationResponse(
      notificationIdentifier: try ProtoMessage.text(m.notification_identifier, "\(path()).notification_identifier"),
      actionIdentifier: try ProtoMessage.text(m.action_identifier, "\(path()).action_identifier"),
      userText: try ProtoMessage.text(m.user_text, "\(path()).user_text"),
      at: Instant(unixMillis: m.at_unix_ms))
    response.snoozeSeconds = m.snooze_seconds
    return response
  }

  package static func categories(_ list: UnsafeMutablePointer<UnsafeMutablePointer<Chime__V1__Category>?>?, count: Int) throws(ChimeError) -> [NotificationCategory] {
    guard let list else { return [] }
    var out: [NotificationCategory] = []
    for i in 0..<count {
      guard let c = list[i]?.pointee else { continue }
      out.append(try category(c, "categories[\(i)]"))
    }
    return out
  }
}
