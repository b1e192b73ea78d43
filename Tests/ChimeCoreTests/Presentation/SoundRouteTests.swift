import ChimeCore
import Testing

/// Which way a sound plays, by what its file's bytes are: a player is given only what it
/// decodes.
@Suite struct SoundRouteTests {
  static let wavPCM16 = SoundFileKind.inspected(.wav, .lpcm, bitsPerSample: 16)
  static let wavPCM24 = SoundFileKind.inspected(.wav, .lpcm, bitsPerSample: 24)
  static let wavFloat = SoundFileKind.inspected(.wav, .float, bitsPerSample: 32)
  static let wavULaw = SoundFileKind.inspected(.wav, .ulaw, bitsPerSample: 8)
  static let aiffPCM = SoundFileKind.inspected(.aiff, .lpcm, bitsPerSample: 16)
  static let aifcIMA4 = SoundFileKind.inspected(.aifc, .ima4, bitsPerSample: 4)
  static let cafPCM = SoundFileKind.inspected(.caf, .lpcm, bitsPerSample: 16)
  static let cafIMA4 = SoundFileKind.inspected(.caf, .ima4, bitsPerSample: 4)
  static let ogg = SoundFileKind.otherContainer

  /// What each player decodes, as measured (see SoundPlayerKind).
  @Test(arguments: [
    (SoundPlayerKind.aplay, wavPCM16, true), (.aplay, wavPCM24, true), (.aplay, wavFloat, true), (.aplay, wavULaw, false),
    (.aplay, aiffPCM, false), (.aplay, cafPCM, false), (.aplay, ogg, false),
    (.paplay, wavULaw, true), (.paplay, aiffPCM, true), (.paplay, aifcIMA4, true), (.paplay, cafPCM, true), (.paplay, cafIMA4, false),
    (.paplay, ogg, true),
    (.pwPlay, ogg, true), (.pwPlay, cafIMA4, false), (.pwPlay, wavPCM16, true),
    (.ffplay, cafIMA4, true), (.ffplay, ogg, true), (.ffplay, .unplayable("gone"), false),
    (.other, cafIMA4, true), (.other, ogg, true), (.other, .unplayable("gone"), false),
  ])
  func playersAreGivenOnlyWhatTheyDecode(_ player: SoundPlayerKind, _ file: SoundFileKind, _ plays: Bool) {
    #expect(player.plays(file) == plays, "\(player) \(file)")
  }

  /// The inspector's answer, not the file's name: AIFF/WAV/CAF by their headers, anything
  /// else (the Ogg default sound) as another container, broken headers as unplayable.
  @Test func theFileKindIsTheInspectorsAnswer() {
    let facts = SoundFacts(container: .caf, codec: .lpcm, channels: 1, sampleRate: 8000, bitsPerSample: 16, frames: 8)
    #expect(SoundFileKind(inspection: .success(facts)) == Self.cafPCM)
    #expect(SoundFileKind(inspection: .failure(ChimeError(.soundUnsupportedFormat, "the file is not AIFF, WAV or CAF"))) == .otherContainer)
    #expect(SoundFileKind(inspection: .failure(ChimeError(.soundCorrupt, "the sound file is empty (0 bytes)")))
      == .unplayable("the sound file is empty (0 bytes)"))
  }

  static let aplay = ["/usr/bin/aplay", "-q"]
  static let paplay = ["/usr/bin/paplay"]
  static let ffplay = SoundPlayerKind.ffplay.command(at: "/usr/bin/ffplay")

  /// The default sound (Ogg Vorbis) with libcanberra unable to reach a device and only aplay
  /// on PATH: the delivery fails with why; aplay never plays it as noise.
  @Test func theOggDefaultSoundNeverGoesToAplay() {
    let sound = SoundChoice.themeDefault(volume: nil)
    #expect(SoundRoute.decide(sound, file: Self.ogg, canberra: true, players: [Self.aplay]) == .play([.canberra]))
    guard case .fail(let why) = SoundRoute.decide(sound, file: Self.ogg, canberra: false, players: [Self.aplay]) else {
      Issue.record("aplay was given the Ogg default sound")
      return
    }
    #expect(why.contains(SoundChoice.defaultThemeFile) && why.contains("aplay (WAV with PCM or float samples only)"), "\(why)")
    #expect(why.contains("ffmpeg (ffplay)"), "says what to install: \(why)")
    #expect(SoundRoute.decide(sound, file: Self.ogg, canberra: false, players: [Self.paplay, Self.aplay]) == .play([.player(Self.paplay)]))
    #expect(SoundRoute.decide(sound, file: Self.ogg, canberra: true, players: [Self.ffplay, Self.aplay])
      == .play([.canberra, .player(Self.ffplay)]))
  }

  /// libcanberra first for what it decodes (WAV PCM of 8 or 16 bits, maybe-Ogg); a CAF or
  /// AIFF goes straight to a player that decodes it.
  @Test func libcanberraIsTriedOnlyOnWhatItDecodes() {
    let file = SoundChoice.file(path: "/c/ding.caf", volume: nil)
    let players = [Self.paplay, Self.ffplay, Self.aplay]
    #expect(SoundRoute.decide(file, file: Self.wavPCM16, canberra: true, players: players)
      == .play([.canberra, .player(Self.paplay), .player(Self.ffplay), .player(Self.aplay)]))
    #expect(SoundRoute.decide(file, file: Self.wavPCM24, canberra: true, players: players)
      == .play([.player(Self.paplay), .player(Self.ffplay), .player(Self.aplay)]))
    #expect(SoundRoute.decide(file, file: Self.cafPCM, canberra: true, players: players) == .play([.player(Self.paplay), .player(Self.ffplay)]))
    #expect(SoundRoute.decide(file, file: Self.cafIMA4, canberra: true, players: players) == .play([.player(Self.ffplay)]))
    guard case .fail(let why) = SoundRoute.decide(file, file: Self.cafIMA4, canberra: true, players: [Self.paplay, Self.aplay]) else {
      Issue.record("a CAF IMA4 file went to a player that cannot decode it")
      return
    }
    #expect(why.contains("/c/ding.caf (CAF ima4)"), "\(why)")
  }

  @Test func aFileThatIsNotThereFailsWithWhy() {
    let decision = SoundRoute.decide(.file(path: "/c/gone.wav", volume: nil), file: .unplayable("/c/gone.wav does not exist"),
                                     canberra: true, players: [Self.paplay])
    #expect(decision == .fail("cannot play /c/gone.wav: /c/gone.wav does not exist"))
    #expect(SoundRoute.decide(.themeDefault(volume: 0.5), file: .unplayable("gone"), canberra: false, players: [Self.paplay])
      == .fail("cannot play \(SoundChoice.defaultThemeFile): gone (it comes with sound-theme-freedesktop)"))
    // The default sound: libcanberra finds it in the theme itself, whatever the file here.
    #expect(SoundRoute.decide(.themeDefault(volume: nil), file: .unplayable("gone"), canberra: true, players: [Self.paplay])
      == .play([.canberra]))
  }

  /// A configured program Chime does not know gets every file; a known one keeps its table.
  @Test func aConfiguredScriptGetsEverythingAConfiguredAplayDoesNot() {
    let sound = SoundChoice.themeDefault(volume: nil)
    #expect(SoundRoute.decide(sound, file: Self.ogg, canberra: false, players: [["/home/u/bin/play-it"]]) == .play([.player(["/home/u/bin/play-it"])]))
    if case .play = SoundRoute.decide(sound, file: Self.ogg, canberra: false, players: [["aplay", "-D", "hw:0"]]) {
      Issue.record("a configured aplay was given an Ogg file")
    }
  }

  @Test func commandsForPlayersFoundOnPath() {
    #expect(SoundPlayerKind.aplay.command(at: "/usr/bin/aplay") == ["/usr/bin/aplay", "-q"])
    #expect(SoundPlayerKind.paplay.command(at: "/usr/bin/paplay") == ["/usr/bin/paplay"])
    #expect(Self.ffplay == ["/usr/bin/ffplay", "-nodisp", "-autoexit", "-hide_banner", "-loglevel", "error"])
    #expect(SoundPlayerKind.completing(["ffplay"]) == ["ffplay", "-nodisp", "-autoexit", "-hide_banner", "-loglevel", "error"])
    #expect(SoundPlayerKind.completing(["ffplay", "-nodisp", "-autoexit", "-v", "quiet"]) == ["ffplay", "-nodisp", "-autoexit", "-v", "quiet", "-hide_banner"])
    #expect(SoundPlayerKind.completing(["aplay", "-D", "hw:0"]) == ["aplay", "-D", "hw:0"])
    #expect(SoundPlayerKind(program: "/usr/bin/pw-cat") == .pwPlay)
    #expect(SoundPlayerKind(program: "./player.sh") == .other)
    #expect(SoundPlayerKind.ffplay.stderrMeansFailure && !SoundPlayerKind.paplay.stderrMeansFailure)
  }

  @Test func playerArgumentsEndWithTheFile() {
    #expect(SoundPlayerKind.arguments(["pw-play", "-v"], sound: .file(path: "/a.wav", volume: nil)) == ["-v", "/a.wav"])
    #expect(SoundPlayerKind.arguments(["aplay"], sound: .themeDefault(volume: nil)) == [SoundChoice.defaultThemeFile])
    #expect(SoundPlayerKind.arguments(["aplay"], sound: .silent) == nil)
  }

  /// pw-play, paplay and ffplay play a critical sound at its volume (aplay has no volume
  /// option: the volume stays in CHIME_SOUND_VOLUME only); a player already given a volume
  /// keeps its own.
  @Test func knownPlayersAreGivenACriticalSoundsVolume() {
    #expect(SoundPlayerKind.arguments(["/usr/bin/pw-play"], sound: .file(path: "/a.wav", volume: 0.5)) == ["--volume=0.5", "/a.wav"])
    #expect(SoundPlayerKind.arguments(["/usr/bin/paplay"], sound: .themeDefault(volume: 0.25))
      == ["--volume=16384", SoundChoice.defaultThemeFile])
    #expect(SoundPlayerKind.arguments(["paplay"], sound: .file(path: "/a.wav", volume: 1)) == ["--volume=65536", "/a.wav"])
    #expect(SoundPlayerKind.arguments(Self.ffplay, sound: .file(path: "/a.wav", volume: 0.5))
      == Array(Self.ffplay.dropFirst()) + ["-volume", "50", "/a.wav"])
    #expect(SoundPlayerKind.arguments(["/usr/bin/aplay", "-q"], sound: .file(path: "/a.wav", volume: 0.5)) == ["-q", "/a.wav"])
    #expect(SoundPlayerKind.arguments(["pw-play", "--volume=0.1"], sound: .file(path: "/a.wav", volume: 0.5)) == ["--volume=0.1", "/a.wav"])
    #expect(SoundPlayerKind.arguments(["pw-play"], sound: .file(path: "/a.wav", volume: nil)) == ["/a.wav"])
  }
}
