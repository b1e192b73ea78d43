import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Categories and responses through the real `chimed` and the `chime` CLI, starting with the
/// README's worked example as written.
@Suite(.testTimeLimit, .serialized) struct CategoriesEndToEndTests {
  static let app = "org.example.calendar"

  func chime(_ arguments: [String], _ daemon: DaemonProcess) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: daemon.socketPath, app: Self.app)
  }

  /// The categories file of the README's example, taken from the README itself.
  func readmeCategoriesJSON() throws -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // the file, EndToEndTests, Tests
    let readme = try String(contentsOfFile: url.appendingPathComponent("README.md").path, encoding: .utf8)
    let line = try #require(readme.split(separator: "\n").first { $0.contains("[{\"identifier\":\"event-invite\"") })
    return line.trimmingCharacters(in: .whitespaces)
  }

  @Test func readmeWorkedExampleRunsAsWritten() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let file = dir.file("categories.json")
    try readmeCategoriesJSON().write(toFile: file, atomically: true, encoding: .utf8)
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    let set = try chime(["categories", "set", file], daemon)
    #expect(set.status == 0, "\(set.stderr)")
    let list = try chime(["categories", "list"], daemon)
    for word in ["event-invite", "accept", "decline", "destructive", "comment", "text input (Send)"] {
      #expect(list.stdout.contains(word), "\(list.stdout)")
    }
    // list --json round-trips through set.
    let json = try chime(["categories", "list", "--json"], daemon)
    let roundTrip = dir.file("again.json")
    try json.stdout.write(toFile: roundTrip, atomically: true, encoding: .utf8)
    #expect(try chime(["categories", "set", roundTrip], daemon).status == 0)
    #expect(try chime(["categories", "list", "--json"], daemon).stdout == json.stdout)
    let parsed = try #require(json.objects)
    #expect(parsed.first?["identifier"] as? String == "event-invite")
    #expect(parsed.first?["options"] as? [String] == ["customDismissAction"])

    for (id, title) in [("lunch", "Lunch with Ana"), ("team", "Team sync"), ("party", "Party")] {
      let add = try chime(["add", id, "--title", title, "--category", "event-invite"], daemon)
      #expect(add.status == 0, "\(add.stderr)")
    }
    let comment = try chime(["respond", "lunch", "--action", "comment", "--text", "Running late"], daemon)
    #expect(comment.status == 0, "\(comment.stderr)")
    #expect(try chime(["respond", "team", "--action", "accept"], daemon).status == 0)
    #expect(try chime(["respond", "party", "--dismiss"], daemon).status == 0)
    let again = try chime(["respond", "party"], daemon)
    #expect(again.status == 1)
    #expect(again.stderr.contains("NOT_FOUND NOTIFICATION_NOT_DELIVERED"), "\(again.stderr)")
    #expect(try chime(["delivered", "--json"], daemon).objects?.isEmpty == true)

    let response = try await nextEvent(&events) { $0.kind == .response }
    #expect(response.identifiers == ["lunch"])
    #expect(response.response?.actionIdentifier == "comment" && response.response?.userText == "Running late")
    #expect(try await nextEvent(&events) { $0.kind == .response }.response?.actionIdentifier == "accept")
    #expect(try await nextEvent(&events) { $0.kind == .response }.response?.actionIdentifier == "chime.dismiss")
    #expect(daemon.terminate() == 0)
  }

  @Test func refusalsExitNonZeroWithReasonAndField() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let file = dir.file("bad.json")
    try #"[{"identifier":"a","actions":[{"identifier":"x","title":"X"},{"identifier":"x","title":"Y"}]}]"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let dup = try chime(["categories", "set", file], daemon)
    #expect(dup.status == 1)
    #expect(dup.stderr.contains("DUPLICATE_ACTION_IDENTIFIER") && dup.stderr.contains("(field categories[0].actions[1].identifier)"), "\(dup.stderr)")
    try #"[{"identifier":"a","actions":[{"identifier":"x","title":"X","options":["loud"]}]}]"#.write(toFile: file, atomically: true, encoding: .utf8)
    let unknown = try chime(["categories", "set", file], daemon)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("[0].actions[0].options[0]"), "\(unknown.stderr)")
    #expect(try chime(["categories", "list", "--json"], daemon).objects?.isEmpty == true)

    #expect(try chime(["add", "plain", "--title", "Plain"], daemon).status == 0)
    let dismiss = try chime(["respond", "plain", "--dismiss"], daemon)
    #expect(dismiss.status == 1)
    #expect(dismiss.stderr.contains("FAILED_PRECONDITION DISMISS_NOT_ENABLED"), "\(dismiss.stderr)")
    let unknownAction = try chime(["respond", "plain", "--action", "accept"], daemon)
    #expect(unknownAction.stderr.contains("UNKNOWN_ACTION"), "\(unknownAction.stderr)")
    // The daemon checks an extension's attributes; the CLI prints reason and field.
    let ratio = try chime(["extension", "run", "--category", "c", "--ratio", "0"], daemon)
    #expect(ratio.status == 1)
    #expect(ratio.stderr.contains("INVALID_CONTENT_SIZE_RATIO") && ratio.stderr.contains("attributes.initial_content_size_ratio"), "\(ratio.stderr)")
    let frame = try chime(["extension", "run", "--category", "c", "--media-button", "default"], daemon)
    #expect(frame.stderr.contains("INVALID_MEDIA_BUTTON_FRAME") && frame.stderr.contains("attributes.media_button.frame"), "\(frame.stderr)")
    #expect(try chime(["extension", "run", "x", "y", "--category", "c"], daemon).status == 64)
    #expect(try chime(["media", "stop", "plain"], daemon).status == 64)
    let noExtension = try chime(["media", "play", "plain"], daemon)
    #expect(noExtension.stderr.contains("FAILED_PRECONDITION EXTENSION_NOT_LIVE"), "\(noExtension.stderr)")
    #expect(daemon.terminate() == 0)
  }

  /// Categories, snapshots and the answered state survive a restart of the real daemon.
  @Test func survivesARestart() async throws {
    let dir = TemporaryDirectory()
    let first = DaemonProcess(directory: dir)
    try first.start()
    let client = try ChimeClient.connect(socketPath: first.socketPath, app: Self.app)
    let invite = NotificationCategory(identifier: "event-invite", actions: [
      NotificationAction(identifier: "accept", title: "Accept"),
      NotificationAction(identifier: "comment", title: "Comment", textInput: .init(buttonTitle: "Send")),
    ])
    try await client.setCategories([invite])
    var request = NotificationRequest(identifier: "lunch", content: NotificationContent(title: "Lunch"))
    request.content.categoryIdentifier = "event-invite"
    _ = try await client.add(request)
    try await client.setCategories([])
    #expect(first.terminate() == 0)

    let second = DaemonProcess(directory: dir)
    try second.start()
    let again = try ChimeClient.connect(socketPath: second.socketPath, app: Self.app)
    #expect(try await again.categories().isEmpty)
    #expect(try await again.allDelivered().first?.category == invite)
    let result = try await again.respond(to: "lunch", action: "comment", text: "still on")
    #expect(result.removed)
    #expect(second.terminate() == 0)
  }

  /// A content extension on its own connection to the real chimed keeps a notification the
  /// user answered from the CLI.
  @Test func aContentExtensionAnswersACLIResponse() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let ext = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    try await ext.setCategories([NotificationCategory(identifier: "event-invite", actions: [NotificationAction(identifier: "accept", title: "Accept")])])
    var stream = ext.registerExtension("invite-ui", categories: ["event-invite"], attributes: ExtensionAttributes(initialContentSizeRatio: 1)).makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    #expect(try chime(["add", "lunch", "--title", "Lunch", "--category", "event-invite"], daemon).status == 0)
    #expect(try await nextMessage(&stream).delivered?.request.identifier == "lunch")

    let cli = Task { try await ChimeCLI.runInBackground(["respond", "lunch", "--action", "accept", "--json"], socket: daemon.socketPath, app: Self.app) }
    let asked = try await nextMessage(&stream)
    #expect(asked.response?.actionIdentifier == "accept")
    try await ext.answerResponse(asked.responseID, extension: "invite-ui", with: .doNotDismiss)
    let run = try await cli.value
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.object?["removed"] as? Bool == false)
    #expect(run.object?["routed_to"] as? [String] == ["invite-ui"])
    #expect(try await ext.allDelivered().map(\.request.identifier) == ["lunch"])
    #expect(daemon.terminate() == 0)
  }

  /// `chime extension` answers a response from `chime respond` with `--answer keep`.
  @Test func theExtensionCommandKeepsANotification() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let output = dir.file("extension.out")
    let process = try SpawnedProcess(DaemonProcess.binDirectory + "/chime",
                                     ["extension", "invite-ui", "--category", "event-invite", "--answer", "keep", "--responses", "1",
                                      "--socket", daemon.socketPath, "--app", Self.app],
                                     environment: SpawnedProcess.environment(), stdout: output, stderr: dir.file("extension.err"))
    let printed = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    // Its first line says it is registered.
    try #require(pollUntil(within: 20) { printed().contains("\n") })
    #expect(printed().hasPrefix("registered invite-ui"))

    #expect(try chime(["add", "lunch", "--title", "Lunch", "--category", "event-invite"], daemon).status == 0)
    let respond = try chime(["respond", "lunch"], daemon)
    #expect(respond.status == 0, "\(respond.stderr)")
    #expect(!respond.stdout.contains("removed"), "\(respond.stdout)")
    #expect(process.waitForExit() == 0)
    #expect(printed().contains("answered keep"))
    #expect(try chime(["delivered", "--json"], daemon).objects?.count == 1)
    #expect(daemon.terminate() == 0)
  }

  /// `chime extension run` with a media button is shown `chime media play` and reports it
  /// playing; `chime delivered --json` shows the attributes and the playback.
  @Test func mediaButtonPressesReachTheExtensionCommand() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let output = dir.file("extension.out")
    let process = try SpawnedProcess(DaemonProcess.binDirectory + "/chime",
                                     ["extension", "run", "--app", Self.app, "--category", "song", "--ratio", "0.5", "--media-button", "overlay",
                                      "--media-frame", "0,0,44,44", "--media-tint", "#FF8800", "--presses", "1", "--socket", daemon.socketPath],
                                     environment: SpawnedProcess.environment(), stdout: output, stderr: dir.file("extension.err"))
    let printed = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    try #require(pollUntil(within: 20) { printed().contains("\n") })
    #expect(printed().hasPrefix("registered \(Self.app).content"))

    #expect(try chime(["add", "song", "--title", "Song", "--category", "song"], daemon).status == 0)
    #expect(try chime(["add", "later", "--title", "Later", "--category", "song", "--in", "1h"], daemon).status == 0)
    let pending = try #require(try chime(["pending", "--json"], daemon).objects?.first)
    #expect((pending["extension_attributes"] as? [String: Any])?["media_button_tint"] as? String == "#FF8800")
    let press = try chime(["media", "play", "song"], daemon)
    #expect(press.status == 0, "\(press.stderr)")
    #expect(press.stdout.contains("\(Self.app).content"), "\(press.stdout)")
    #expect(process.waitForExit() == 0)
    let rest = printed()
    #expect(rest.contains("media play song") && rest.contains("reported playing"), "\(rest)")
    let delivered = try #require(try chime(["delivered", "--json"], daemon).objects?.first)
    #expect(delivered["media_playback"] as? String == "playing")
    let attributes = delivered["extension_attributes"] as? [String: Any]
    #expect(attributes?["initial_content_size_ratio"] as? Double == 0.5)
    #expect(attributes?["media_button"] as? String == "overlay")
    let unknown = try chime(["media", "pause", "nothing"], daemon)
    #expect(unknown.status != 0 && unknown.stderr.contains("NOTIFICATION_NOT_DELIVERED"), "\(unknown.stderr)")
    #expect(daemon.terminate() == 0)
  }
}
