import ArgumentParser
import ChimeCore
import FoundationEssentials
import ChimeSystem

/// The CLI's entry point: ArgumentParser's, plus what people meet first — an unknown command
/// gets "did you mean", `chime help nosuch` fails, an error thrown while running shows the
/// subcommand's usage (not the top-level one), and with `--json` every failure is also one JSON
/// object on stdout.
extension Chime {
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let json = arguments.contains("--json")
    if let unknown = unknownCommand(arguments) {
      fail(unknown, json: json)
    }
    let command: any ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      finish(error, in: Chime.self, json: json)
    }
    do {
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        var plain = command
        try plain.run()
      }
    } catch {
      finish(error, in: type(of: command), json: json)
    }
  }

  /// The top-level command names (and their aliases).
  static var commandNames: [String] {
    configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases } + ["help"]
  }

  /// A message for a first word that is no command (`chime pendng`, `chime help nosuch`).
  static func unknownCommand(_ arguments: [String]) -> String? {
    guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
    if first == "help" {
      guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return nil }
      return commandNames.contains(arguments[1]) ? nil : unknownText(arguments[1])
    }
    return commandNames.contains(first) ? nil : unknownText(first)
  }

  private static func unknownText(_ word: String) -> String {
    var text = "unknown command \"\(word)\""
    let best = commandNames.map { ($0, EditDistance.between(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
    if let best, best.1 <= max(2, word.count / 3) { text += "; did you mean \"\(best.0)\"?" }
    return text + " (chime --help lists the commands)"
  }

  private static func fail(_ message: String, json: Bool) -> Never {
    if json {
      JSONOutput.print(JSONOutput.error(ChimeError(.invalidCommandLine, message), status: 64))
    }
    printError("chime: \(message)")
    StandardStreams.exit(64)
  }

  /// Ends the process for `error` thrown parsing or running `command`.
  private static func finish(_ error: any Error, in command: any ParsableCommand.Type, json: Bool) -> Never {
    let status = exitCode(for: error)
    if json, status != .success, !(error is ExitCode) {
      let message = command.message(for: error).trimmingWhitespaceAndNewlines()
      JSONOutput.print(JSONOutput.error(ChimeError(.invalidCommandLine, message), status: status.rawValue))
      StandardStreams.flush()
    }
    if error is ValidationError, command != Chime.self, let path = path(to: command) {
      // Thrown by `run`, where ArgumentParser no longer knows the command's place in the tree
      // and would show `Usage: add ...`: the usage as a parse error shows it, `chime add ...`.
      printError("""
        Error: \(command.message(for: error))
        Usage: \(usageString(for: command))
          See 'chime \(path.joined(separator: " ")) --help' for more information.
        """)
      StandardStreams.exit(status.rawValue)
    }
    command.exit(withError: error)
  }

  /// The subcommand names from `chime` to `command` (`["apps", "register"]`).
  static func path(to command: any ParsableCommand.Type, under parent: any ParsableCommand.Type = Chime.self) -> [String]? {
    for sub in parent.configuration.subcommands {
      if sub == command { return [sub._commandName] }
      if let rest = path(to: command, under: sub) { return [sub._commandName] + rest }
    }
    return nil
  }
}
