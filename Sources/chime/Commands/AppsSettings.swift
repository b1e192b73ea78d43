import ArgumentParser
import ChimeClient
import ChimeCore

/// `chime apps allow|deny|settings ID`: the user's side of authorization. These act on the app
/// named by ID through SetAppSettings, whatever --app says.
extension Apps {
  struct Allow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "allow",
      abstract: "Allow an app notifications (restoring what it was granted; alert, sound and badge if nothing).")

    @Argument(help: "The app identifier.") var id: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await changeSettings(AppSettingsChange(appID: id, status: .authorized), options: options)
    }
  }

  struct Deny: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "deny",
      abstract: "Deny an app notifications: its adds are refused with NOTIFICATIONS_NOT_ALLOWED.")

    @Argument(help: "The app identifier.") var id: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await changeSettings(AppSettingsChange(appID: id, status: .denied), options: options)
    }
  }

  struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "settings",
      abstract: "Show an app's settings, or switch some on or off.",
      discussion: """
        Examples:
          chime apps settings org.example.tea
          chime apps settings org.example.tea --sound off --badge off
          chime apps settings org.example.alarm --critical-alert on
        """)

    @Argument(help: "The app identifier.") var id: String
    @Option(help: "on or off.") var alert: Switch?
    @Option(help: "on or off.") var sound: Switch?
    @Option(help: "on or off.") var badge: Switch?
    @Option(help: "on or off.") var criticalAlert: Switch?
    @Option(help: "on or off.") var timeSensitive: Switch?
    @Option(help: "on or off.") var carPlay: Switch?
    @Option(help: "on or off.") var announcement: Switch?
    @OptionGroup var options: ClientOptions

    func run() async throws {
      var change = AppSettingsChange(appID: id)
      let switches: [(Switch?, AuthorizationOptions)] = [
        (alert, .alert), (sound, .sound), (badge, .badge), (criticalAlert, .criticalAlert),
        (timeSensitive, .timeSensitive), (carPlay, .carPlay), (announcement, .announcement),
      ]
      for case let (value?, option) in switches {
        if value == .on { change.enable.insert(option) } else { change.disable.insert(option) }
      }
      try await changeSettings(change, options: options)
    }
  }

  enum Switch: String, CaseIterable, ExpressibleByArgument {
    case on, off
  }
}

/// Sends the user's change and prints the app's settings afterwards.
private func changeSettings(_ change: AppSettingsChange, options: ClientOptions) async throws {
  try await reporting(json: options.json) {
    let settings = try await options.connect().setAppSettings(change)
    if options.json {
      JSONOutput.print(SettingsText.json(settings, app: change.appID))
    } else {
      print(SettingsText.lines(settings, app: change.appID))
    }
  }
}
