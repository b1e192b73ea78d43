import ArgumentParser

@main
struct Chime: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chime",
    abstract: "Schedule and manage desktop notifications through chimed.",
    discussion: """
      Every subcommand talks to the chimed daemon over its Unix socket and acts for one app \
      (--app, or $CHIME_APP; default "chime.cli"). Add --json to any command for \
      machine-readable output. On failure chime prints the status and its reason and exits \
      non-zero (69 when the daemon cannot be reached).

      Examples:
        chime add tea --title "Tea" --body "Steeped" --in 10s
        chime add stretch --title "Stretch" --in 1h --repeats
        chime pending
        chime watch
        chime delivered --remove tea
      """,
    subcommands: [Add.self, Pending.self, Remove.self, Delivered.self, Watch.self, Next.self]
  )
}
