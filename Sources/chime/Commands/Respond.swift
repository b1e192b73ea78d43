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
      let result = if let snooze {
        try await options.connect().respondSnooze(to: id, seconds: try SnoozeDuration(parsing: snooze, field: "snooze").seconds)
      } else {
        try await options.connect().respond(to: id, action: chosen, text: text ?? "")
      }
      if options.json {
        JSONOutput.print(["id": id, "action": chosen, "removed": result.removed, "routed_to": result.routedTo])
      } else {
        print("answered \(id) with \(chosen)\(result.removed ? "; removed from delivered" : "")")
      }
    }
  }
}
