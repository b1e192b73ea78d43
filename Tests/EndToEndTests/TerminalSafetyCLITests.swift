import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Any app of the user can put escape sequences in a title or an identifier; the CLI's human
/// output shows them escaped, so printing a list can never repaint or retitle the terminal.
/// JSON output stays exact.
@Suite(.testTimeLimit, .serialized) struct TerminalSafetyCLITests {
  static let hostileTitle = "\u{1B}]0;pwned\u{07}\u{1B}[31mRed\u{1B}[0m"
  static let shownTitle = "\\e]0;pwned\\x07\\e[31mRed\\e[0m"

  func chime(_ arguments: [String], _ socket: String) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: "org.example.tty")
  }

  func expectNoControls(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let controls = text.unicodeScalars.filter { TerminalText.needsEscape($0) && $0 != "\n" }
    #expect(controls.isEmpty, "raw control characters in output: \(controls.map { $0.value })", sourceLocation: sourceLocation)
  }

  @Test func pendingDeliveredAndWatchShowEscapesEscaped() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let socket = daemon.socketPath
    // An identifier with controls is refused, and the refusal quotes it escaped.
    let refused = try chime(["add", "later\u{1B}[2J", "--title", "x", "--in", "1h"], socket)
    #expect(refused.status != 0)
    expectNoControls(refused.stderr)
    let add = try chime(["add", "later", "--title", Self.hostileTitle, "--in", "1h"], socket)
    #expect(add.status == 0, "\(add.stderr)")
    expectNoControls(add.stdout)

    let pending = try chime(["pending"], socket)
    #expect(pending.status == 0)
    expectNoControls(pending.stdout)
    #expect(pending.stdout.contains(Self.shownTitle))

    let now = try chime(["add", "now", "--title", Self.hostileTitle], socket)
    #expect(now.status == 0, "\(now.stderr)")
    let delivered = try chime(["delivered"], socket)
    expectNoControls(delivered.stdout)
    #expect(delivered.stdout.contains(Self.shownTitle))

    let watch = try ChimeCLI.run(["watch", "--after", "0", "--count", "2"], socket: socket, app: "org.example.tty", timeout: 20)
    #expect(watch.status == 0, "\(watch.stderr)")
    expectNoControls(watch.stdout)
    #expect(watch.stdout.contains(Self.shownTitle))

    // JSON is exact: the title comes back byte for byte.
    let json = try #require(try chime(["pending", "--json"], socket).objects)
    let titles = json.compactMap { ($0["content"] as? [String: Any])?["title"] as? String ?? $0["title"] as? String }
    #expect(titles.contains(Self.hostileTitle))
    #expect(daemon.terminate() == 0)
  }

  @Test func watchCountStopsAfterThatManyEvents() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    for id in ["a", "b", "c"] {
      #expect(try chime(["add", id, "--title", id, "--in", "1h"], daemon.socketPath).status == 0)
    }
    let watch = try chime(["watch", "--after", "0", "--count", "2", "--json"], daemon.socketPath)
    #expect(watch.status == 0, "\(watch.stderr)")
    let lines = watch.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.contains("pending-added") || $0.contains("pendingAdded") })
    #expect(try chime(["watch", "--count", "0"], daemon.socketPath).status != 0)
    #expect(daemon.terminate() == 0)
  }
}
