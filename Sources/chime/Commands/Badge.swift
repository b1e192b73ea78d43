import ArgumentParser
import ChimeClient
import ChimeCore

/// `chime badge [N]`: the app's badge count.
struct Badge: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "badge",
    abstract: "Print the app's (--app) badge count, or set it to N (0 clears it).",
    discussion: """
      Setting needs the app's badge permission (BADGE_NOT_ALLOWED otherwise); a negative N is \
      BADGE_INPUT_INVALID. Every change is a badge-changed event.

      Examples:
        chime badge --app org.example.tea
        chime badge 3 --app org.example.tea
      """
  )

  @Argument(help: "The new count.") var count: Int?
  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      if let count {
        try await client.setBadgeCount(count)
      }
      let badge = try await client.settings().badgeCount
      if options.json {
        JSONOutput.print(["app": options.appID, "badge_count": badge] as [String: Any])
      } else {
        print(badge)
      }
    }
  }
}
