import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The real `chimed` choosing a player for each sound by its file's bytes, with fake `aplay`
/// and `paplay` on PATH (scripts that record their arguments) and libcanberra's ALSA driver
/// given an ALSA configuration with no PCM at all, as on a machine without a sound device: it
/// opens, fails at the first sound, and the players take over.
@Suite struct SoundPlayerChoiceTests {
  static let app = "org.example.tea"

  struct Setup {
    var dir: TemporaryDirectory
    var daemon: DaemonProcess
    var client: ChimeClient
    func played(_ player: String) -> String { (try? String(contentsOfFile: dir.file("\(player).args"), encoding: .utf8)) ?? "" }
  }

  /// chimed with only the named fake players on PATH; each appends its arguments to
  /// `NAME.args`, then runs `body`.
  func start(players: [String], body: String = "", sounds: [String: String] = [:]) async throws -> Setup {
    let dir = TemporaryDirectory()
    let bin = dir.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for name in players {
      ExecutableScript.write("echo \"$@\" >> '\(dir.file("\(name).args"))'\n" + body, to: bin + "/" + name)
    }
    let container = dir.file("container")
    for (fixture, name) in sounds { MediaCorpus.copy(fixture, to: container + "/Library/Sounds/" + name) }
    _ = FileManager.default.createFile(atPath: dir.file("alsa.conf"), contents: Data())
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none"],
                               environment: ["PATH": bin, "CA_DRIVER": "alsa", "ALSA_CONFIG_PATH": dir.file("alsa.conf"),
                                             "XDG_DATA_HOME": dir.file("share")])
    try daemon.start()
    try #require(pollUntil(within: 10) { daemon.log.contains("sounds play through") || daemon.log.contains("deliveries are silent") },
                 "\(daemon.log)")
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    if !sounds.isEmpty { _ = try await client.registerApp(container: container) }
    return Setup(dir: dir, daemon: daemon, client: client)
  }

  func content(_ sound: Sound) -> NotificationContent {
    var content = NotificationContent(title: "Tea")
    content.sound = sound
    return content
  }

  /// The default sound is Ogg Vorbis: paplay (libsndfile) plays it; aplay, which would play its
  /// bytes as raw PCM noise, is never given it.
  @Test func theOggDefaultSoundGoesToPaplayNeverToAplay() async throws {
    let setup = try await start(players: ["aplay", "paplay"])
    defer { setup.daemon.terminate() }
    _ = try await setup.client.add(NotificationRequest(identifier: "tea", content: content(.default)))
    try #require(pollUntil(within: 10) { setup.played("paplay").contains("\n") }, "\(setup.daemon.log)")
    #expect(setup.played("paplay") == SoundChoice.defaultThemeFile + "\n")
    #expect(setup.played("aplay").isEmpty, "aplay got \(setup.played("aplay"))")
  }

  /// With only aplay, the Ogg default sound is not played at all: the delivery reports
  /// presentation-failed saying why and what to install.
  @Test func withOnlyAplayTheDefaultSoundFailsWithWhy() async throws {
    let setup = try await start(players: ["aplay"])
    defer { setup.daemon.terminate() }
    var events = setup.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await setup.client.add(NotificationRequest(identifier: "tea", content: content(.default)))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.identifiers == ["tea"])
    #expect(failed.note.hasPrefix("sound: no player here plays \(SoundChoice.defaultThemeFile)"), "\(failed.note)")
    #expect(failed.note.contains("aplay (WAV with PCM or float samples only)"), "\(failed.note)")
    #expect(setup.played("aplay").isEmpty, "aplay got \(setup.played("aplay"))")
  }

  /// A WAV with PCM samples is what aplay plays; a CAF sound (which aplay would play as noise)
  /// goes to paplay.
  @Test func aplayPlaysWAVAndACAFGoesToPaplay() async throws {
    let setup = try await start(players: ["aplay", "paplay"],
                                sounds: ["sounds/wav-lpcm16.wav": "ding.wav", "sounds/caf-lpcm16.caf": "ding.caf"])
    defer { setup.daemon.terminate() }
    // paplay comes first on PATH's order of preference; with it gone from the picture, aplay
    // is the WAV's player: so look at the CAF with both, and the WAV through a second daemon.
    _ = try await setup.client.add(NotificationRequest(identifier: "caf", content: content(.named("ding.caf"))))
    try #require(pollUntil(within: 10) { setup.played("paplay").hasSuffix("ding.caf\n") }, "\(setup.daemon.log)")
    #expect(setup.played("aplay").isEmpty, "aplay got \(setup.played("aplay"))")

    let only = try await start(players: ["aplay"], sounds: ["sounds/wav-lpcm16.wav": "ding.wav", "sounds/caf-lpcm16.caf": "ding.caf"])
    defer { only.daemon.terminate() }
    _ = try await only.client.add(NotificationRequest(identifier: "wav", content: content(.named("ding.wav"))))
    try #require(pollUntil(within: 10) { only.played("aplay").hasSuffix("ding.wav\n") }, "\(only.daemon.log)")
    #expect(only.played("aplay").hasPrefix("-q "), "aplay runs quiet, so its stderr holds errors only: \(only.played("aplay"))")
  }

  /// ffplay with no audio device names the (existing) file in its last line and exits 0: the
  /// event says the audio output failed, and no exit status 0 is called a failure.
  @Test func ffplayWithoutAnAudioDeviceSaysNoAudioOutput() async throws {
    let body = """
      echo "SDL_OpenAudio (2 channels, 44100 Hz): ALSA: Couldn't open audio device: No such file or directory" >&2
      echo 'No more combinations to try, audio open failed' >&2
      echo "Failed to open file '\(SoundChoice.defaultThemeFile)' or configure filtergraph" >&2
      exit 0
      """
    let setup = try await start(players: ["ffplay"], body: body)
    defer { setup.daemon.terminate() }
    var events = setup.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await setup.client.add(NotificationRequest(identifier: "tea", content: content(.default)))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.note == "sound: ffplay: no audio output: SDL_OpenAudio (2 channels, 44100 Hz): ALSA: Couldn't open audio device: No such file or directory",
            "\(failed.note)")
    #expect(!failed.note.contains("status 0") && !failed.note.contains("Failed to open file"), "\(failed.note)")
  }

  /// A player's stderr (ALSA's words among them) lands in chimed's log as one line under the
  /// player's name, never as bare lines; its last line is the delivery's failure reason.
  @Test func aPlayersStderrIsOneLineUnderItsName() async throws {
    let body = """
      echo 'ALSA lib confmisc.c:855:(parse_card) cannot find card 0' >&2
      echo 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default' >&2
      echo 'Failed to open audio device' >&2
      exit 1
      """
    let setup = try await start(players: ["paplay"], body: body)
    defer { setup.daemon.terminate() }
    var events = setup.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await setup.client.add(NotificationRequest(identifier: "tea", content: content(.default)))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.note == "sound: paplay: no audio output: Failed to open audio device (exited with status 1)", "\(failed.note)")
    let log = setup.daemon.log
    let lines = log.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("ALSA lib") }, "bare ALSA lines in the log:\n\(log)")
    let said = lines.filter { $0.contains("cannot find card 0") }
    #expect(said.count == 1, "\(log)")
    #expect(said.first?.contains("paplay: ALSA lib confmisc.c:855:(parse_card) cannot find card 0 | ALSA lib pcm.c") == true, "\(log)")
    #expect(said.first?.contains("| Failed to open audio device") == true, "\(log)")
  }
}
