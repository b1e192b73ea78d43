import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeRecords
import ChimeSystem
import FoundationEssentials

/// `chime import FILE.ics`: the alarms of an iCalendar file as pending requests (issue 41 item
/// 7). The `chime-calendar` helper reads the file with libical and plans what it holds
/// (`RequestImport`); the CLI adds each request to chimed as `chime add` does.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Add the alarms of an iCalendar file as notifications.",
    discussion: """
      A VEVENT that `chime export --ics` wrote, with its time unchanged, is restored as it was \
      (identifier, content, trigger; a title or body edited in a calendar app is taken). A \
      one-shot interval becomes the instant it was to fire at; a repeating interval starts \
      again from the import. Any other event or to-do gives a notification per DISPLAY or \
      AUDIO alarm (and per REPEAT), titled by its SUMMARY: a recurring event's alarm is one \
      rule trigger (as `chime add --rrule` makes) when its rule reproduces the alarm's \
      instants, else a notification per instant within a year (at most 100 an alarm). Events \
      without such alarms, or whose alarms are past, are skipped; each is listed with the \
      reason.

      Requests go to --app (else the app a Chime export names, else $CHIME_APP or chime.cli); \
      the same identifier replaces the earlier request, so importing twice changes nothing.

      Examples:
        chime import reminders.ics
        chime import work.ics --app org.example.calendar --dry-run
      """
  )

  @OptionGroup var options: ClientOptions
  @Argument(help: "The .ics file.") var file: String
  @Option(help: "IANA zone of floating times and all-day dates (default: the local zone).") var tz: String?
  @Flag(help: "Show what would be added; add nothing.") var dryRun = false

  private struct Line: Decodable {
    var kind: String
    var app: String?
    var identifier: String?
    var record: String?
    var first_fire: String?
    var source: String
    var note: String?
    var reason: String?
  }

  func run() async throws {
    var zone = SystemTimeZone.current()
    if let tz {
      guard let named = Zone.named(tz) else { throw ValidationError("--tz: unknown time zone \"\(tz)\"") }
      zone = named
    }
    let output = try CalendarHelper.run(["import", file, String(Instant(Date()).unixMillis), zone.identifier])
    let lines = try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
      try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }
    var failed = false
    var clients: [String: ChimeClient] = [:]
    let codec = RecordCodec()
    for line in lines {
      guard line.kind == "request", let record = line.record, let bytes = Base64Text.decode(record),
            let pending = try? codec.decode(PendingRequest.self, from: bytes) else {
        if options.json {
          JSONOutput.print(["skipped": true, "source": line.source, "reason": line.reason ?? ""])
        } else {
          print("skipped \(line.source): \(line.reason ?? "")")
        }
        continue
      }
      let app = options.app ?? line.app ?? options.appID
      let id = pending.request.identifier
      var object: [String: Any] = ["id": id, "app": app, "source": line.source, "note": line.note ?? ""]
      if dryRun {
        object["next_fire"] = line.first_fire ?? ""
        if options.json { JSONOutput.print(object) } else { print("would add \(id) (\(app)): fires \(TimeText.local(pending.nextFire)); \(line.note ?? "")") }
        continue
      }
      do {
        let client = try clients[app] ?? options.connect(app: app)
        clients[app] = client
        let result = try await client.add(pending.request)
        object["next_fire"] = TimeText.iso(result.pending.nextFire)
        object["replaced"] = result.replaced
        if options.json {
          JSONOutput.print(object)
        } else {
          print("\(result.replaced ? "replaced" : "added") \(id) (\(app)): fires \(TimeText.local(result.pending.nextFire)); \(line.note ?? "")")
        }
      } catch let error as ChimeError {
        failed = true
        report(error, json: options.json, status: 1)
        printError("chime: \(id) from \(line.source) was not added")
      }
    }
    if failed { throw ExitCode(1) }
  }
}
