import ArgumentParser
import ChimeClient
import ChimeCore

/// `chime settings`: the app's GetSettings.
struct Settings: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "settings",
    abstract: "Show the app's (--app) authorization status, settings and badge count.",
    discussion: "The user changes them with `chime apps allow|deny|settings ID`."
  )

  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let settings = try await options.connect().settings()
      if options.json {
        JSONOutput.print(SettingsText.json(settings, app: options.appID))
      } else {
        print(SettingsText.lines(settings, app: options.appID))
      }
    }
  }
}
