import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

/// `chime media play|pause ID`: press a delivered notification's media play/pause button.
struct MediaCommandLine: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "media",
    abstract: "Press a delivered notification's media play/pause button.",
    discussion: """
      The content extension live for the notification's category is shown mediaPlay or \
      mediaPause; it must have registered a media button (`chime extension run --media-button ...`). \
      What it reports back (playing, paused) shows in `chime delivered --json` as media_playback.

      Examples:
        chime media play song
        chime media pause song
      """
  )

  @Argument(help: "play or pause.") var command: String
  @Argument(help: "The delivered notification's identifier.") var id: String
  @OptionGroup var options: ClientOptions

  func validate() throws {
    guard MediaCommand(rawValue: command) != nil else { throw ValidationError("the command is play or pause") }
  }

  func run() async throws {
    let chosen = MediaCommand(rawValue: command) ?? .play
    try await reporting(json: options.json) {
      let target = try await options.connect().pressMediaButton(id, chosen)
      if options.json {
        JSONOutput.print(["id": id, "command": chosen.rawValue, "extension": target])
      } else {
        print("\(chosen.rawValue) \(id) -> \(target)")
      }
    }
  }
}
