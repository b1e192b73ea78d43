import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeRecords
import ChimeSystem
import FoundationEssentials

/// `chime export --ics`: an app's pending requests as an iCalendar file a calendar app imports
/// (issue 41 item 7). The CLI asks chimed for the requests, as `pending` does, and has the
/// `chime-calendar` helper write the iCalendar with libical (chime does not link libical).
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write an app's pending notifications as iCalendar, for a calendar app.",
    discussion: """
      Each pending request of the app (--app, else $CHIME_APP, else chime.cli) becomes a VEVENT: \
      DTSTART its next fire (in its trigger's zone, or floating), an RRULE when it repeats \
      (intervals as FREQ=MINUTELY/HOURLY/...;INTERVAL=n, calendar patterns as their rule, \
      rule triggers with their own start, rule and exclusions), SUMMARY the title, \
      DESCRIPTION the body, and a VALARM (DISPLAY, at the start). X-CHIME-* properties keep the \
      rest (identifier, app, sound, category, user info, the exact trigger), so `chime import` \
      of the file restores the requests. Snoozed notifications and attachments are not \
      exported; a calendar pattern with no RRULE equivalent (week of month, week of year) \
      shows only its next fire in a calendar app. Notes go to stderr; with --json, a refusal \
      is also printed as JSON (the calendar itself is iCalendar).

      Examples:
        chime export --ics > reminders.ics
        chime export --ics --app org.example.tea --output tea.ics
      """
  )

  @OptionGroup var options: ClientOptions
  @Flag(help: "Write iCalendar (RFC 5545), the format export writes.") var ics = false
  @Option(name: [.short, .customLong("output")], help: "Write to this file (replaced) instead of stdout.") var output: String?

  func validate() throws {
    guard ics else { throw ValidationError("give --ics: export writes iCalendar (chime pending --json lists requests as JSON)") }
  }

  func run() async throws {
    var input: [UInt8] = []
    try await reporting(json: options.json) {
      let client = try options.connect()
      let codec = RecordCodec()
      for pending in try await client.allPending() {
        input += Array(options.appID.utf8) + [0x09] + Array(Base64Text.encode(codec.encode(pending)).utf8) + [0x0A]
      }
    }
    let zone = SystemTimeZone.current()
    let text = try CalendarHelper.run(["export", String(Instant(Date()).unixMillis), zone.identifier], input: input)
    guard let output else {
      print(String(decoding: text, as: UTF8.self), terminator: "")
      return
    }
    do {
      try Data(text).write(to: URL(fileURLWithPath: output))
    } catch {
      printError("chime: cannot write \(output): \(error)")
      throw ExitCode(1)
    }
  }
}
