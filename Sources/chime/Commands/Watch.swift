import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials
import ChimeSystem

struct Watch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Stream the app's events as they happen (delivered, added, removed, ...).",
    discussion: """
      Runs until interrupted, printing one line per event on stdout (--json: one JSON object \
      per line). Each stored event begins with its cursor, #N; with --after N it first replays \
      the events after that cursor, so a watcher can resume where it stopped. Events that are \
      not stored (presentation-failed) are seen only live and cannot be resumed from: their \
      line shows `live` instead of a cursor (--json: "cursor": null).

      When the replay is done and the stream is live, chime says so on stderr with the cursor \
      to resume from; it is not an event. --count N exits after N events: N lines on stdout.

      Examples:
        chime watch
        chime watch --json --after 1042
        chime watch --count 1        # wait for the next event, print it, exit
      """
  )

  @OptionGroup var options: ClientOptions

  @Option(parsing: .unconditional, help: "Replay events after this cursor first (0 replays everything kept).")
  var after: Int64?

  @Option(parsing: .unconditional, help: "Exit after this many events (lines on stdout).")
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
        if event.kind == .subscribed {
          // A marker, not an event: the replay is over and what follows happens live.
          printError("chime: watching \(options.appID) live; chime watch --after \(event.cursor) resumes from here")
          StandardStreams.flush()
          continue
        }
        if options.json {
          JSONOutput.print(JSONOutput.event(event), pretty: false)
        } else {
          print(TimeText.eventLine(event))
        }
        StandardStreams.flush()
        seen += 1
        if let count, seen >= count { return }
      }
      throw ChimeError(.connectionClosed, "the daemon ended the stream")
    }
  }
}
