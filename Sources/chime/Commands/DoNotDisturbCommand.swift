import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime dnd`: the user's Do Not Disturb setting (SetDoNotDisturb, GetDoNotDisturb).
struct DoNotDisturbCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dnd",
    abstract: "Show or change Do Not Disturb: passive and active notifications arrive quietly.",
    discussion: """
      While Do Not Disturb is on, passive and active notifications are delivered quietly: \
      recorded, badge applied and events sent, but no popup and no sound (the delivered event's \
      note says "do not disturb"). Time-sensitive ones break through when the app has the \
      time-sensitive permission, critical ones when it has the critical-alert permission.

      It is on by hand (`on`, until `off` or until --until), or in the windows of a schedule: \
      wall-clock times read in chimed's zone (floating), starting on the given weekdays; a \
      window may cross midnight. On a DST night a time the clock skips takes effect when the \
      clock jumps, and a time it repeats at its first occurrence. `off` ends the manual part \
      only; `schedule --clear` removes the schedule.

      It is also on while the desktop's notification server is paused (dunst: `dunstctl \
      set-paused true`) or inhibited (KDE Plasma), unless `follow-desktop off`. When several \
      sources apply, the status names the first of manual, schedule, desktop. When it ends, one \
      popup says how many notifications arrived quietly meanwhile and from which apps \
      (`summary off` to stop it).

      Examples:
        chime dnd
        chime dnd on --until 1h
        chime dnd on --until 2099-12-01T08:00
        chime dnd off
        chime dnd schedule 22:00-07:00 --days mon-fri
        chime dnd schedule --clear
        chime dnd follow-desktop off
        chime dnd summary off
      """,
    subcommands: [Status.self, On.self, Off.self, Schedule.self, FollowDesktop.self, Summary.self],
    defaultSubcommand: Status.self
  )

  /// Prints the state as a line or two of text, or one JSON object.
  static func show(_ report: DoNotDisturbReport, json: Bool) {
    let now = Instant(Date())
    if json {
      JSONOutput.print(object(report))
      return
    }
    let status = report.status
    if status.active {
      var source = status.source?.rawValue ?? "?"
      if status.source == .desktop, let desktop = status.desktop { source += ": " + desktop.rawValue }
      let until = status.until.map { "until \(TimeText.local($0)) (\(DurationText.relative($0, from: now)))" } ?? "until switched off"
      print("do not disturb: on (\(source)), \(until)")
    } else {
      let next = status.nextStart.map { "; next scheduled start \(TimeText.local($0)) (\(DurationText.relative($0, from: now)))" } ?? ""
      print("do not disturb: off\(next)")
    }
    if let schedule = report.setting.schedule {
      print("schedule: \(schedule.windowText) \(schedule.days.text) (\(report.timeZone))")
    } else {
      print("schedule: none")
    }
    let desktop = report.setting.followDesktop ? (status.desktop.map { "followed (\($0.rawValue))" } ?? "followed") : "not followed"
    print("desktop: \(desktop); summary when it ends: \(report.setting.summary ? "on" : "off")")
  }

  static func object(_ report: DoNotDisturbReport) -> [String: Any] {
    func time(_ instant: Instant?) -> Any { instant.map { TimeText.iso($0) as Any } ?? JSONValue.null }
    var manual: Any = JSONValue.null
    if let on = report.setting.manual { manual = ["until": time(on.until)] as [String: Any] }
    var schedule: Any = JSONValue.null
    if let s = report.setting.schedule {
      schedule = ["window": s.windowText, "start": DoNotDisturbSchedule.text(s.startMinute), "end": DoNotDisturbSchedule.text(s.endMinute),
                  "days": DoNotDisturbDays.names.enumerated().filter { s.days.contains(DoNotDisturbDays(isoWeekday: $0.offset + 1)) }.map(\.element)]
        as [String: Any]
    }
    return [
      "active": report.status.active,
      "source": report.status.source.map { $0.rawValue as Any } ?? JSONValue.null,
      "until": time(report.status.until),
      "next_start": time(report.status.nextStart),
      "manual": manual,
      "schedule": schedule,
      "time_zone": report.timeZone,
      "desktop": report.status.desktop.map { $0.rawValue as Any } ?? JSONValue.null,
      "follow_desktop": report.setting.followDesktop,
      "summary": report.setting.summary,
    ]
  }

  struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Whether Do Not Disturb is on now, from which source, and until when.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
        DoNotDisturbCommand.show(try await options.connect().doNotDisturb(), json: options.json)
      }
    }
  }

  struct On: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "on", abstract: "Switch Do Not Disturb on, until switched off or until --until.")
    @Option(help: "When it ends: a duration (90m, 2h) from now, or an instant (2099-12-01T08:00, local unless it has an offset).")
    var until: String?
    @OptionGroup var options: ClientOptions

    func run() async throws {
      var end: Instant?
      if let until {
        if let parsed = InstantText.parse(until, zone: SystemTimeZone.current()) {
          end = Instant(parsed.date)
        } else {
          // Not an instant: a duration from now, in the one duration grammar (`10` needs a unit).
          let seconds = try DurationOption.parse(until, option: "--until", DurationInput.Bounds(noun: "Do Not Disturb"),
                                                 hint: "or an instant such as 2099-12-01T08:00")
          end = Instant(Date()).adding(seconds: seconds)
        }
      }
      try await reporting(json: options.json) {
        DoNotDisturbCommand.show(try await options.connect().setDoNotDisturb(DoNotDisturbChange(manual: .on(until: end))), json: options.json)
      }
    }
  }

  struct Off: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "off", abstract: "Switch the manual Do Not Disturb off (a schedule window still applies).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
        DoNotDisturbCommand.show(try await options.connect().setDoNotDisturb(DoNotDisturbChange(manual: .off)), json: options.json)
      }
    }
  }

  struct Schedule: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "schedule", abstract: "Set the schedule (START-END, e.g. 22:00-07:00), or --clear it.")
    @Argument(help: "The window in 24-hour time, START-END; an end at or before the start is the next day.") var window: String?
    @Option(help: "The weekdays a window starts on, written as a calendar trigger's weekday=: mon-fri, sat+sun, mon+wed-fri (a comma also joins days; default: every day).") var days: String?
    @Flag(help: "Remove the schedule.") var clear = false
    @OptionGroup var options: ClientOptions

    func validate() throws {
      if clear == (window != nil) { throw ValidationError("give a window (22:00-07:00) or --clear") }
      if clear, days != nil { throw ValidationError("--days goes with a window, not with --clear") }
    }

    func run() async throws {
      try await reporting(json: options.json) {
        let change: DoNotDisturbChange
        if let window {
          change = DoNotDisturbChange(schedule: .set(try DoNotDisturbSchedule.parse(window, days: days)))
        } else {
          change = DoNotDisturbChange(schedule: .clear)
        }
        DoNotDisturbCommand.show(try await options.connect().setDoNotDisturb(change), json: options.json)
      }
    }
  }

  struct FollowDesktop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "follow-desktop", abstract: "Whether a paused or inhibited notification server counts as Do Not Disturb (on|off).")
    @Argument(help: "on or off.") var value: OnOff
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
        let change = DoNotDisturbChange(followDesktop: value == .on)
        DoNotDisturbCommand.show(try await options.connect().setDoNotDisturb(change), json: options.json)
      }
    }
  }

  struct Summary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "summary", abstract: "Whether one popup sums up what arrived quietly when Do Not Disturb ends (on|off).")
    @Argument(help: "on or off.") var value: OnOff
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
        DoNotDisturbCommand.show(try await options.connect().setDoNotDisturb(DoNotDisturbChange(summary: value == .on)), json: options.json)
      }
    }
  }

  enum OnOff: String, ExpressibleByArgument, CaseIterable {
    case on, off
  }
}
