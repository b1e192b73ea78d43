import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

/// `chime snooze ID DURATION`: a delivered notification leaves the screen and comes back later.
struct Snooze: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snooze",
    abstract: "Snooze a delivered notification: it leaves the screen and is delivered again after the duration.",
    discussion: """
      The duration is 1 minute to 1 week (5m, 10m, 1h30m, 1d, 1w; a unit is required, as for \
      every duration chime takes: 10 alone is refused). The notification leaves \
      the delivered list, `chime pending` lists it as snoozed until it comes back, and it is \
      delivered again then with the same content and attachments and its snooze count. A \
      repeating request's next fire does not move. `chime remove ID` cancels the snooze.

      Examples:
        chime snooze wake 10m
        chime snooze standup 1h --json
      """
  )

  @Argument(help: "The delivered notification's identifier.") var id: String
  @Argument(help: "How long: 1m to 1w (e.g. 5m, 10m, 1h).") var duration: String
  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let seconds = try SnoozeDuration(parsing: duration).seconds
      let entry = try await options.connect().snooze(id, seconds: seconds)
      if options.json {
        JSONOutput.print(JSONOutput.pending(entry))
      } else {
        let now = Instant(Date())
        print("snoozed \(id) until \(TimeText.local(entry.nextFire)) (\(DurationText.relative(entry.nextFire, from: now)))")
      }
    }
  }
}
