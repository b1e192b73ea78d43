import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

struct Pending: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pending",
    abstract: "List scheduled notifications with their next fire time.",
    discussion: """
      Examples:
        chime pending
        chime pending --json

      A snoozed notification (chime snooze) is listed with its NEXT FIRE the time it comes \
      back and TRIGGER "snoozed (N)"; --json marks it "snoozed": true with its snooze_count.
      """
  )

  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      let requests = try await client.allPending()
      if options.json {
        JSONOutput.print(requests.map(JSONOutput.pending))
        return
      }
      guard !requests.isEmpty else {
        print("no pending notifications for \(options.appID)")
        return
      }
      let now = Instant(Date())
      var table = Table(headers: ["ID", "TITLE", "TRIGGER", "NEXT FIRE"], keep: [3], whole: [0], cutFirst: [1])
      for pending in requests {
        table.add([
          pending.request.identifier,
          ContentText.title(pending.request.content),
          (pending.snoozeCount > 0 ? "snoozed (\(pending.snoozeCount))" : TimeText.trigger(pending.request.trigger, added: pending.added))
            + (pending.request.content.ring.map { ring in
              ", rings \(DurationText.exact(Double(ring.seconds)))" + (ring.autoSnooze > 0 ? ", auto-snooze \(ring.autoSnooze)" : "")
            } ?? ""),
          "\(TimeText.local(pending.nextFire)) (\(DurationText.relative(pending.nextFire, from: now)))",
        ])
      }
      print(table.render(width: options.tableWidth), terminator: "")
    }
  }
}
