import ArgumentParser
import ChimeClient
import ChimeCore

/// `chime authorize`: the app's RequestAuthorization.
struct Authorize: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Ask for authorization for the app (--app), as an app would at its first start.",
    discussion: """
      The first request records chimed's decision (chimed --authorization: allow grants what \
      is asked, quietly with --provisional; ask-denies denies until the user runs `chime apps \
      allow ID`); later requests print the recorded decision unchanged. Exits 0 either way.

      Examples:
        chime authorize --alert --sound --badge --app org.example.tea
        chime authorize --provisional --app org.example.news
      """
  )

  @Flag var alert = false
  @Flag var sound = false
  @Flag var badge = false
  @Flag var criticalAlert = false
  @Flag(help: "Quiet delivery without asking: no sound, no badge.") var provisional = false
  @Flag var timeSensitive = false
  @Flag var carPlay = false
  @Flag var announcement = false
  @Flag var providesAppNotificationSettings = false
  @OptionGroup var options: ClientOptions

  var requested: AuthorizationOptions {
    var o: AuthorizationOptions = []
    if alert { o.insert(.alert) }
    if sound { o.insert(.sound) }
    if badge { o.insert(.badge) }
    if criticalAlert { o.insert(.criticalAlert) }
    if provisional { o.insert(.provisional) }
    if timeSensitive { o.insert(.timeSensitive) }
    if carPlay { o.insert(.carPlay) }
    if announcement { o.insert(.announcement) }
    if providesAppNotificationSettings { o.insert(.providesAppNotificationSettings) }
    return o
  }

  func run() async throws {
    try await reporting {
      let result = try await options.connect().requestAuthorization(requested)
      if options.json {
        var object = SettingsText.json(result.settings, app: options.appID)
        object["granted"] = result.granted
        JSONOutput.print(object)
      } else {
        print("granted         \(result.granted ? "yes" : "no")")
        print(SettingsText.lines(result.settings, app: options.appID))
      }
    }
  }
}

/// `chime settings`: the app's GetSettings.
struct Settings: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the app's (--app) authorization status, settings and badge count.",
    discussion: "The user changes them with `chime apps allow|deny|settings ID`."
  )

  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting {
      let settings = try await options.connect().settings()
      if options.json {
        JSONOutput.print(SettingsText.json(settings, app: options.appID))
      } else {
        print(SettingsText.lines(settings, app: options.appID))
      }
    }
  }
}

/// `chime badge [N]`: the app's badge count.
struct Badge: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
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
    try await reporting {
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
