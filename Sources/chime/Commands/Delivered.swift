import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

struct Delivered: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "delivered",
    abstract: "List or remove delivered notifications.",
    discussion: """
      Examples:
        chime delivered
        chime delivered --remove tea
        chime delivered --remove-all
      """
  )

  @OptionGroup var options: ClientOptions

  @Option(parsing: .upToNextOption, help: "Remove these delivered notifications.")
  var remove: [String] = []

  @Flag(help: "Remove every delivered notification of the app.")
  var removeAll = false

  @Flag(help: "With --remove, exit 0 even when an identifier named is not delivered.")
  var ignoreMissing = false

  func validate() throws {
    if removeAll && !remove.isEmpty { throw ValidationError("give --remove IDs or --remove-all, not both") }
  }

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      if removeAll {
        try report(removed: try await client.removeAllDelivered(), asked: nil, json: options.json, what: "delivered") {
          ChimeError(.notificationNotDelivered, "\($0) is not delivered")
        }
        return
      }
      if !remove.isEmpty {
        let removed = try await client.removeDelivered(remove)
        let missing = remove.filter { !removed.contains($0) }
        var pendingIDs: Set<String> = []
        if !missing.isEmpty && (!ignoreMissing || options.json) {
          pendingIDs = Set(try await client.allPending().map(\.request.identifier)).intersection(missing)
        }
        let app = options.appID
        try report(removed: removed, asked: remove, json: options.json, what: "delivered", ignoreMissing: ignoreMissing) { id in
          ChimeError(.notificationNotDelivered, pendingIDs.contains(id)
            ? "\(id) is not delivered: it is pending (remove it with: chime remove \(id))"
            : "\(id) is not delivered (no delivered notification of \(app) has this identifier)")
        } alsoKnown: { pendingIDs.contains($0) ? "pending" : nil }
        return
      }
      let notifications = try await client.allDelivered()
      if options.json {
        JSONOutput.print(notifications.map(JSONOutput.delivered))
        return
      }
      guard !notifications.isEmpty else {
        print("no delivered notifications for \(options.appID)")
        return
      }
      let now = Instant(Date())
      var table = Table(headers: ["ID", "TITLE", "CATEGORY", "DELIVERED", "NOTE"], keep: [3], whole: [0], cutFirst: [1])
      for n in notifications {
        var notes: [String] = []
        if n.missed { notes.append("missed (due \(TimeText.local(n.due)))") }
        // Kept quiet by Do Not Disturb: recorded, but neither shown nor heard.
        if n.quiet { notes.append("quiet (do not disturb)") }
        if n.snoozeCount > 0 { notes.append(n.snoozeCount == 1 ? "snoozed once" : "snoozed \(n.snoozeCount) times") }
        if n.request.content.ring != nil {
          notes.append(RingRule.isRinging(n, now: now) ? "ringing" : "rang" + (n.ringEnded.map { ": \($0.rawValue)" } ?? ""))
        }
        let note = notes.joined(separator: "; ")
        let category = n.request.content.categoryIdentifier
        let actions = n.category.map { c in c.actions.isEmpty ? "" : " (" + c.actions.map(\.identifier).joined(separator: ", ") + ")" } ?? ""
        table.add([n.request.identifier, ContentText.title(n.request.content), category + actions,
                   "\(TimeText.local(n.delivered)) (\(DurationText.relative(n.delivered, from: now)))", note])
      }
      print(table.render(width: options.tableWidth), terminator: "")
    }
  }
}
