import ArgumentParser
import ChimeClient
import ChimeCore

/// `chime authorize`: the app's RequestAuthorization.
struct Authorize: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "authorize",
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
    try await reporting(json: options.json) {
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
