import ChimeTestSupport
import Foundation
import Testing

/// The README's "A tour of the CLI" runs exactly as written, against a daemon in a temporary
/// directory (the tour's `chime` lines, comments dropped, words split as a shell would for
/// double quotes).
@Suite(.testTimeLimit) struct ReadmeTourTests {
  static func tourCommands() throws -> [[String]] {
    try ReadmeCommands.commands(after: "## A tour of the CLI", before: "looks like this")
  }

  @Test func tourRunsAsWritten() throws {
    let commands = try Self.tourCommands()
    #expect(commands.count >= 7)
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    for arguments in commands {
      let run = try ChimeCLI.run(arguments, socket: daemon.socketPath, timeout: 30)
      #expect(run.status == 0, "chime \(arguments.joined(separator: " ")): \(run.stderr)")
      if arguments == ["pending"] {
        #expect(run.stdout.hasPrefix("ID       TITLE    TRIGGER"))
        #expect(run.stdout.contains("every 1h"))
      }
    }
  }
}
