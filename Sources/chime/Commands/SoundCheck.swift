import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

extension SoundCommand {
  /// `chime sound check NAME --app ID`: asks the daemon.
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Ask chimed where a sound name is found for an app and what would play.",
      discussion: """
        Prints every place searched, in order (the container's Library/Sounds, each group \
        container's Library/Sounds, the bundle), which one matched, and the outcome. Exits 0 \
        only when the named sound would play as itself.

        Example:
          chime sound check ding.caf --app org.example.tea
        """
    )

    @Argument(help: "The sound's file name (no '/').") var name: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
      var playsItself = false
      try await reporting(json: options.json) {
        let check = try await options.connect().checkSound(name)
        playsItself = check.resolution.plays == .named
        if options.json {
          var object = JSONOutput.soundResolution(check.resolution)
          object["searched"] = check.searched.map { step -> [String: Any] in
            var s: [String: Any] = ["path": step.path, "exists": step.exists]
            if !step.note.isEmpty { s["note"] = step.note }
            return s
          }
          JSONOutput.print(object)
          return
        }
        print("searched for \(name) (app \(options.appID)):")
        for (i, step) in check.searched.enumerated() {
          let mark = step.exists ? (i == check.searched.count - 1 && check.resolution.reason != Reason.soundNotFound.name ? "found" : "exists") : "absent"
          print("  \(i + 1). \(mark.padded(to: 7)) \(step.path)\(step.note.isEmpty ? "" : "  (\(step.note))")")
        }
        let r = check.resolution
        if r.plays == .named {
          print("plays \(r.path): \(r.container) \(r.codec), \(r.channels) ch, \(r.sampleRate) Hz, \(r.durationSeconds) s")
        } else {
          print("plays default: \(r.reason): \(r.message)")
        }
      }
      if !playsItself { throw ExitCode(1) }
    }
  }
}
