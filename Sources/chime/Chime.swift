import ArgumentParser
import ChimeBuildInfo
import ChimeCore

@main
struct Chime: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chime",
    abstract: "Schedule and manage desktop notifications through chimed.",
    discussion: """
      Subcommands talk to the chimed daemon over its Unix socket and act for one app (--app, \
      or $CHIME_APP; default "chime.cli"); `next`, `attachment check` and `sound inspect` work \
      without a daemon. Add --json to any command for machine-readable output. On failure chime \
      prints the status and its reason and exits non-zero (69 when the daemon cannot be \
      reached, 64 for a bad command line).

      Examples:
        chime add tea --title "Tea" --body "Steeped" --in 10s
        chime add stretch --title "Stretch" --in 1h --repeats
        chime pending
        chime watch
        chime delivered --remove tea
        chime add pic --title "Pic" --in 1h --attach ~/pic.png --sound ding.caf
        chime attachment check ~/clip.mp4
        chime apps register org.example.tea --container ~/tea
        chime categories set categories.json
        chime respond lunch --action accept
        chime push --app org.example.news payload.json
        chime authorize --alert --sound --badge --app org.example.tea
        chime badge 3 --app org.example.tea
        chime apps deny org.example.spam
      """,
    subcommands: [Add.self, Push.self, Pending.self, Remove.self, Delivered.self, Categories.self, Respond.self, ExtensionCommand.self, MediaCommandLine.self, Watch.self, Next.self, Apps.self, Authorize.self, Settings.self, Badge.self, AttachmentCommand.self, SoundCommand.self, Doctor.self, DoNotDisturbCommand.self, Snooze.self,
                  CalendarCommand.self, Center.self, ExportCommand.self, ImportCommand.self]
  )

  // `--version` is this command's own flag rather than the configuration's `version`, which
  // ArgumentParser would list in every subcommand's help as well.
  @Flag(help: "Show the version.") var version = false

  func run() async throws {
    guard version else { throw CleanExit.helpRequest(self) }
    print(BuildInfo.version)
  }
}
