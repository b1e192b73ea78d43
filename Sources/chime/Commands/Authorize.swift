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
      is asked, quietly with --provisional; ask shows the user an "Allow notifications?" \
      prompt and waits for the answer, printing status not-determined when none came in time \
      (chimed --authorization-prompt-wait, 20 s); ask-denies denies until the user runs `chime \
      apps allow ID`); later requests print the recorded decision unchanged. Exits 0 either way.

      The first request decides every permission at once: an app that posted with alert, sound \
      and badge before it asked keeps only what this request names. Ask for all the app uses \
      together; chime warns on stderr when a grant leaves out alert, sound or badge that the \
      app had.

      Examples:
        chime authorize --alert --sound --badge --app org.example.tea
        chime authorize --alert --sound --critical-alert --app org.example.tea
        chime authorize --provisional --app org.example.news
      """
  )

  @Flag(help: "Show alerts (banners and the notification list).") var alert = false
  @Flag(help: "Play sounds.") var sound = false
  @Flag(help: "Set the app's badge count.") var badge = false
  @Flag(help: "Critical alerts: critical sounds and the critical interruption level.") var criticalAlert = false
  @Flag(help: "Quiet delivery without asking: no sound, no badge.") var provisional = false
  @Flag(help: "The time-sensitive interruption level.") var timeSensitive = false
  @Flag(help: "Show notifications in CarPlay (recorded; no effect on Linux).") var carPlay = false
  @Flag(help: "Let Siri announce notifications (recorded; no effect on Linux).") var announcement = false
  @Flag(help: "The app has its own notification settings screen.") var providesAppNotificationSettings = false
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

  /// A warning when the app had alert, sound or badge before this request (posting under the
  /// implicit allow, or granted earlier) and does not after it; nil when nothing was lost.
  /// Sound and badge are not counted as lost when the request was provisional: quiet delivery
  /// is what it asks for.
  static func lostPermissions(before: NotificationSettings, after: NotificationSettings, requested: AuthorizationOptions,
                              app: String) -> String? {
    let quiet = requested.contains(.provisional)
    let kept: [(String, Bool, Bool)] = [("alert", before.alert, after.alert), ("sound", before.sound, after.sound || quiet),
                                        ("badge", before.badge, after.badge || quiet)]
    let lost = kept.filter { $0.1 && !$0.2 }.map(\.0)
    guard !lost.isEmpty else { return nil }
    let flags = lost.map { "--\($0)" }.joined(separator: " ")
    let switches = lost.map { "--\($0) on" }.joined(separator: " ")
    return "\(app) had \(lost.joined(separator: ", ")) and this grant leaves \(lost.count == 1 ? "it" : "them") out: "
      + "the first request decides, so ask for everything together (chime authorize \(flags) ...), "
      + "or the user switches \(lost.count == 1 ? "it" : "them") back on: chime apps settings \(app) \(switches)"
  }

  func run() async throws {
    try await reporting(json: options.json) {
      let client = try options.connect()
      let before = try await client.settings()
      let result = try await client.requestAuthorization(requested)
      if let warning = Self.lostPermissions(before: before, after: result.settings, requested: requested, app: options.appID) {
        printError("chime: warning: \(warning)")
      }
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
