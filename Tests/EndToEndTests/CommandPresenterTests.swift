import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The command presenter and the sound player through the real `chimed`, with stub scripts
/// that record what they were given. No desktop needed.
@Suite(.testTimeLimit) struct CommandPresenterTests {
  static let app = "org.example.tea"

  /// An executable shell script in `dir`.
  func script(_ dir: TemporaryDirectory, _ name: String, _ body: String) throws -> String {
    let path = dir.file(name)
    ExecutableScript.write(body, to: path)
    return path
  }

  func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  @Test func theCommandGetsTheNotificationAsJSON() async throws {
    let dir = TemporaryDirectory()
    let out = dir.file("stdin.json")
    let stub = try script(dir, "present.sh", "cat > '\(out).part' && mv '\(out).part' '\(out)'")
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "command", "--present-command", stub, "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var content = NotificationContent(title: "Tea", subtitle: "Kitchen", body: "Ready")
    content.userInfoJSON = #"{"cup":2}"#
    _ = try await client.add(NotificationRequest(identifier: "tea", content: content))
    try #require(pollUntil(within: 10) { !read(out).isEmpty }, "\(daemon.log)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(read(out).utf8)) as? [String: Any])
    #expect(object["app"] as? String == Self.app)
    #expect(object["identifier"] as? String == "tea")
    #expect(object["title"] as? String == "Tea")
    #expect(object["subtitle"] as? String == "Kitchen")
    #expect(object["urgency"] as? Int == 1)
    #expect((object["userInfo"] as? [String: Any])?["cup"] as? Int == 2)
  }

  @Test(arguments: [("exit 3", "exited with status 3", 10.0), ("sleep 30", "still running after 300 ms", 0.3)])
  func aFailingCommandIsReportedAndTheDeliveryStays(_ body: String, _ expected: String, _ timeout: Double) async throws {
    let dir = TemporaryDirectory()
    let stub = try script(dir, "present.sh", "cat > /dev/null\n" + body)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "command", "--present-command", stub,
                                                           "--present-timeout", "\(timeout)", "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(NotificationRequest(identifier: "tea", content: NotificationContent(title: "Tea")))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.identifiers == ["tea"])
    #expect(failed.note.hasPrefix("command: "), "\(failed.note)")
    #expect(failed.note.contains(expected), "\(failed.note)")
    #expect(daemon.log.contains("presentation failed"))
    #expect(try await client.allDelivered().map(\.request.identifier) == ["tea"])
  }

  @Test func chimePlaysTheSoundThroughThePlayer() async throws {
    let dir = TemporaryDirectory()
    let out = dir.file("args")
    let player = try script(dir, "player.sh", "echo \"$@ volume=$CHIME_SOUND_VOLUME\" >> '\(out)'")
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--sound-player", player])
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var content = NotificationContent(title: "Tea")
    content.sound = .default
    _ = try await client.add(NotificationRequest(identifier: "tea", content: content))
    try #require(pollUntil(within: 10) { read(out).contains("\n") }, "\(daemon.log)")
    #expect(read(out) == SoundChoice.defaultThemeFile + " volume=\n")
    // Passive: shown without sound.
    content.interruptionLevel = .passive
    _ = try await client.add(NotificationRequest(identifier: "quiet", content: content))
    content.interruptionLevel = .active
    content.sound = Sound.none
    _ = try await client.add(NotificationRequest(identifier: "silent", content: content))
    content.sound = .default
    _ = try await client.add(NotificationRequest(identifier: "last", content: content))
    try #require(pollUntil(within: 10) { read(out).split(separator: "\n").count == 2 })
    #expect(read(out).split(separator: "\n").count == 2, "passive and silent deliveries play nothing")

    // A critical sound plays at its volume (with the critical-alert permission).
    _ = try await client.requestAuthorization([.alert, .sound, .criticalAlert])
    content.sound = Sound(kind: .defaultCritical, volume: 0.5)
    _ = try await client.add(NotificationRequest(identifier: "alarm", content: content))
    try #require(pollUntil(within: 10) { read(out).split(separator: "\n").count == 3 })
    #expect(read(out).split(separator: "\n").last == Substring(SoundChoice.defaultThemeFile + " volume=0.5"))
  }

  /// Commands that hang take one of libuv's four pool threads, not all of them: the commits
  /// and reads that share the pool go on, so adds and fires are not held up to the
  /// presenter's timeout by a stuck mail script.
  @Test func hangingCommandsDoNotHoldUpCommits() async throws {
    let dir = TemporaryDirectory()
    let started = dir.file("started")
    let stub = try script(dir, "present.sh", "cat > /dev/null\necho x >> '\(started)'\nexec sleep 30")
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "command", "--present-command", stub,
                                                           "--present-timeout", "16", "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    for n in 0..<4 {
      _ = try await client.add(NotificationRequest(identifier: "hang\(n)", content: NotificationContent(title: "Hang \(n)")))
    }
    // Stuck in its command (without a lane all four were, queued on the pool before the next
    // add's commit: one per pool thread).
    try #require(pollUntil(within: 10) { !read(started).isEmpty })
    let clock = ContinuousClock()
    let begun = clock.now
    _ = try await client.add(NotificationRequest(identifier: "next", content: NotificationContent(title: "Next")))
    let listed = try await client.allDelivered().map(\.request.identifier)
    let took = clock.now - begun
    // Held up, they would wait for the presenter's 16 s timeout; the bound leaves room for a
    // loaded machine (5.6 s seen with the suite and two builds sharing two cores).
    #expect(took < .seconds(10), "an add and a list took \(took) behind hanging presenter commands")
    #expect(Set(listed) == ["hang0", "hang1", "hang2", "hang3", "next"])
  }

  /// libcanberra's ALSA driver into ALSA's null PCM (named the default by the daemon's own
  /// ~/.asoundrc), so it runs on a machine without a sound card or audio server, as in CI.
  @Test func libcanberraPlaysIntoANullSink() async throws {
    let dir = TemporaryDirectory()
    let home = dir.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try "pcm.!default { type null }\n".write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none"],
                               environment: ["HOME": home, "CA_DRIVER": "alsa", "XDG_DATA_HOME": dir.file("share")])
    try daemon.start()
    defer { daemon.terminate() }
    try #require(pollUntil(within: 10) { daemon.log.contains("sounds play through libcanberra") }, "\(daemon.log)")
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var content = NotificationContent(title: "Tea")
    content.sound = .default
    _ = try await client.add(NotificationRequest(identifier: "tea", content: content))
    try #require(pollUntil(within: 10) { daemon.log.contains("sound started") }, "\(daemon.log)")
    #expect(daemon.log.contains("backend=libcanberra"), "\(daemon.log)")
    #expect(!daemon.log.contains("presentation failed"), "\(daemon.log)")
  }

  /// libcanberra decodes WAV (PCM) and Ogg only; Chime accepts CAF and AIFF too. A sound it
  /// cannot decode is played by a player on PATH when there is one, else that delivery's
  /// failure; libcanberra still plays every later sound.
  @Test(arguments: [false, true]) func aSoundLibcanberraCannotDecodeDoesNotSilenceTheRest(withPlayer: Bool) async throws {
    let dir = TemporaryDirectory()
    let bin = dir.file("bin"), played = dir.file("played")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    if withPlayer { _ = try script(dir, "bin/paplay", "echo \"$@\" >> '\(played)'") }
    let home = dir.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try "pcm.!default { type null }\n".write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    let container = dir.file("container")
    MediaCorpus.copy("sounds/caf-lpcm16.caf", to: container + "/Library/Sounds/ding.caf")
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none"],
                               environment: ["HOME": home, "CA_DRIVER": "alsa", "XDG_DATA_HOME": dir.file("share"), "PATH": bin])
    try daemon.start()
    defer { daemon.terminate() }
    try #require(pollUntil(within: 10) { daemon.log.contains("sounds play through libcanberra") }, "\(daemon.log)")
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    _ = try await client.registerApp(container: container)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var content = NotificationContent(title: "Tea")
    content.sound = .named("ding.caf")
    let caf = try await client.add(NotificationRequest(identifier: "caf", content: content))
    #expect(caf.delivered?.sound?.plays == .named, "Chime accepted the CAF sound")
    if withPlayer {
      try #require(pollUntil(within: 10) { read(played).hasSuffix("ding.caf\n") }, "\(daemon.log)")
    } else {
      let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
      #expect(failed.identifiers == ["caf"] && failed.note.hasPrefix("sound: "), "\(failed.note)")
    }
    content.sound = .default
    _ = try await client.add(NotificationRequest(identifier: "next", content: content))
    try #require(pollUntil(within: 10) { daemon.log.contains("sound started") }, "\(daemon.log)")
    #expect(!daemon.log.contains("deliveries are silent"), "\(daemon.log)")
  }

  /// freedesktop with no bus behind the address: reported per delivery, nothing lost.
  @Test func noSessionBusIsReportedAndTheDeliveryStays() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", "none"],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + dir.file("no-bus")])
    try daemon.start()
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(NotificationRequest(identifier: "tea", content: NotificationContent(title: "Tea")))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.note == "freedesktop: no session bus", "\(failed.note)")
    #expect(try await client.allDelivered().map(\.request.identifier) == ["tea"])
    #expect(daemon.terminate() == 0)
  }
}
