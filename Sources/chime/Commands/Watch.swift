import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials
import Glibc

struct Watch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Stream the app's events as they happen (delivered, added, removed, ...).",
    discussion: """
      Runs until interrupted. With --after CURSOR it first replays the events after that \
      cursor (each event prints its cursor), so a watcher can resume where it stopped.
      --json prints one JSON object per line.

      Examples:
        chime watch
        chime watch --json --after 1042
        chime watch --count 1        # wait for the next event, print it, exit
      """
  )

  @OptionGroup var options: ClientOptions

  @Option(parsing: .unconditional, help: "Replay events after this cursor first (0 replays everything kept).")
  var after: Int64?

  @Option(parsing: .unconditional, help: "Exit after this many events (the 'subscribed' marker does not count).")
  var count: Int?

  func validate() throws {
    if let count, count < 1 { throw ValidationError("--count must be at least 1 (got \(count))") }
    if let after, after < 0 {
      throw ValidationError("--after takes a cursor, 0 or more (got \(after)): the #N that begins each watch line")
    }
  }

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      var seen = 0
      for try await event in client.subscribe(after: after.map { UInt64($0) }) {
        if options.json {
          JSONOutput.print(JSONOutput.event(event), pretty: false)
        } else {
          print(TimeText.eventLine(event))
        }
        fflush(nil)
        if event.kind != .subscribed { seen += 1 }
        if let count, seen >= count { return }
      }
      throw ChimeError(.connectionClosed, "the daemon ended the stream")
    }
  }
}
