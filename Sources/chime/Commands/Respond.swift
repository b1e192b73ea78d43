import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

/// `chime respond`: answer a delivered notification as the user would.
struct Respond: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "respond",
    abstract: "Answer a delivered notification: open it, dismiss it, or choose one of its actions.",
    discussion: """
      Without --action or --dismiss the notification was opened (the default action). The \
      app's watchers get a `response` event and the notification leaves the delivered list. \
      --dismiss is accepted only for a category with customDismissAction; --text is for a \
      text-input action, and required by one.

      Examples:
        chime respond lunch
        chime respond lunch --action accept
        chime respond lunch --action comment --text "Running late"
        chime respond lunch --dismiss
        chime respond wake --snooze 5m    (one of the category's snooze durations)
      """
  )

  @Argument(help: "The delivered notification's identifier.") var id: String
  @Option(help: "The action chosen (an action identifier of the notification's category).") var action: String?
  @Option(help: "The text typed, for a text-input action.") var text: String?
  @Flag(help: "The user dismissed the notification.") var dismiss = false
  @Option(help: "The user chose this snooze button (chime.snooze): one of the category's snooze durations.") var snooze: String?
  @OptionGroup var options: ClientOptions

  func validate() throws {
    if [dismiss, action != nil, snooze != nil].filter({ $0 }).count > 1 { throw ValidationError("give one of --action, --dismiss or --snooze") }
  }

  func run() async throws {
    let chosen = dismiss ? NotificationAction.dismissIdentifier
      : snooze != nil ? NotificationAction.snoozeIdentifier : action ?? NotificationAction.defaultIdentifier
    try await reporting(json: options.json) {
      let snoozeSeconds = try snooze.map { text throws(ChimeError) in try SnoozeDuration(parsing: text, field: "snooze").seconds }
      let client = try options.connect()
      let result = if let snoozeSeconds {
        try await client.respondSnooze(to: id, seconds: snoozeSeconds)
      } else {
        try await client.respond(to: id, action: chosen, text: text ?? "")
      }
      // A snooze button's answer says when the notification comes back: its snoozed entry in
      // the pending list (none when a content extension handled the button itself).
      let returns = snoozeSeconds == nil ? nil
        : try await client.allPending().first { $0.request.identifier == id && $0.snoozeCount > 0 }?.nextFire
      if options.json {
        var object: [String: Any] = ["id": id, "action": chosen, "removed": result.removed, "routed_to": result.routedTo]
        if snoozeSeconds != nil { object["returns"] = returns.map { TimeText.iso($0) as Any } ?? JSONValue.null }
        JSONOutput.print(object)
      } else {
        var line = "answered \(id) with \(chosen)\(result.removed ? "; removed from delivered" : "")"
        if let returns {
          line += "; snoozed until \(TimeText.local(returns)) (\(DurationText.relative(returns, from: Instant(Date()))))"
        } else if snoozeSeconds != nil {
          line += "; not snoozed (a content extension handled it)"
        }
        print(line)
      }
    }
  }
}
