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
      to resume from; it is not an event. --count N exits after N events: N lines on stdout. \
      When chimed stops or restarts, chime says so on stderr, waits for it and goes on after \
      the last event it printed.

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
      var resume = StreamResume(after: after.map { UInt64($0) })
      var client = try options.connect()
      var seen = 0
      while true {
        let ended: ChimeError
        do {
          for try await event in client.subscribe(after: resume.cursor) {
            resume.saw(event)
            if event.kind == .subscribed {
              // A marker, not an event: the replay is over and what follows happens live.
              printError("chime: watching \(options.appID) live; chime watch --after \(event.cursor) resumes from here")
              StandardStreams.flush()
              continue
            }
            if options.json {
              JSONOutput.print(JSONOutput.event(event))
            } else {
              print(TimeText.eventLine(event))
            }
            StandardStreams.flush()
            seen += 1
            if let count, seen >= count { return }
          }
          ended = ChimeError(.connectionClosed, "the daemon ended the stream")
        } catch let error as ChimeError {
          ended = error
        }
        guard StreamResume.reopens(after: ended) else { throw ended }
        // chimed stopped or restarted: the stream is opened again after the last stored event
        // printed, so nothing is missed or printed twice.
        let from = resume.cursor.map { "after #\($0)" } ?? "live"
        printError("chime: the stream ended (\(ended.reason): \(ended.message)); reconnecting to chimed, resuming \(from)")
        StandardStreams.flush()
        client = try await reconnect()
      }
    }
  }

  /// Connects again, waiting between attempts while chimed is away (`StreamResume.delayMillis`).
  ///
  /// - Throws: the first error that is not chimed's absence.
  private func reconnect() async throws -> ChimeClient {
    var attempt = 0
    while true {
      try await Task.sleep(for: .milliseconds(StreamResume.delayMillis(attempt: attempt)))
      do {
        return try options.connect()
      } catch let error as ChimeError where StreamResume.reopens(after: error) {
        attempt += 1
      }
    }
  }
}
