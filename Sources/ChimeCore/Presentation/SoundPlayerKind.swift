/// A program that plays sound files, as Chime knows it: what it decodes and how it is called.
/// Known by the program's file name; anything else is `.other`.
///
/// What each decodes was measured on Debian 12 with the fixtures of Tests/Fixtures/media/sounds
/// and the theme's Ogg Vorbis default (`sndfile-info`, `aplay -D null`, `ffmpeg -f null`):
/// - `pw-play` (PipeWire's pw-cat) and `paplay` read files with libsndfile 1.2: WAV (PCM, float,
///   µ-law, A-law, IMA and MS ADPCM, MP3), AIFF and AIFF-C (PCM, float, µ-law, A-law, IMA4), CAF
///   (PCM, float, µ-law, A-law; not IMA4 or ALAC), and files by their own headers: Ogg Vorbis
///   and Opus, FLAC, MP3.
/// - `ffplay` decodes all of these (FFmpeg).
/// - `aplay` reads WAV with PCM or float samples only ("can't play WAVE-file format 0x0007 which
///   is not PCM or FLOAT encoded"); any other file, AIFF, CAF and Ogg included, it plays as raw
///   8 kHz bytes: noise. It is never given one.
public enum SoundPlayerKind: String, Hashable, Sendable, CaseIterable {
  case pwPlay = "pw-play"
  case paplay
  case ffplay
  case aplay
  /// A program Chime does not know (a `--sound-player` script): given every file, and trusted
  /// to say on stderr and in its exit status what it could not play.
  case other

  /// The players looked for on PATH when none is configured, most capable first.
  public static let searched: [SoundPlayerKind] = [.pwPlay, .paplay, .ffplay, .aplay]

  /// The kind of the program a command runs (`/usr/bin/paplay`, `pw-cat`, `./my-player`).
  public init(program: String) {
    let name = program.split(separator: "/").last.map(String.init) ?? program
    switch name {
    case "pw-play", "pw-cat": self = .pwPlay
    case "paplay": self = .paplay
    case "ffplay": self = .ffplay
    case "aplay": self = .aplay
    default: self = .other
    }
  }

  /// The kind of a command's program (its first word).
  public init(command: [String]) {
    self.init(program: command.first ?? "")
  }

  /// Whether this player decodes a file of this kind.
  public func plays(_ file: SoundFileKind) -> Bool {
    switch (self, file) {
    case (_, .unplayable): return false
    case (.other, _), (.ffplay, _): return true
    case (.pwPlay, .otherContainer), (.paplay, .otherContainer): return true
    case (.aplay, .otherContainer): return false
    case (.pwPlay, .inspected(let container, let codec, _)), (.paplay, .inspected(let container, let codec, _)):
      return Self.libsndfileDecodes(container, codec)
    case (.aplay, .inspected(let container, let codec, _)):
      return container == .wav && (codec == .lpcm || codec == .float)
    }
  }

  /// What libsndfile 1.2 reads in Chime's three sound containers.
  static func libsndfileDecodes(_ container: SoundContainer, _ codec: SoundCodec) -> Bool {
    switch container {
    case .wav: [.lpcm, .float, .ulaw, .alaw, .ima4, SoundCodec(rawValue: "msadpcm"), SoundCodec(rawValue: "mp3")].contains(codec)
    case .aiff, .aifc: [.lpcm, .float, .ulaw, .alaw, .ima4].contains(codec)
    case .caf: [.lpcm, .float, .ulaw, .alaw].contains(codec)
    }
  }

  /// What it plays, in a few words, for a refusal.
  public var playsInWords: String {
    switch self {
    case .pwPlay, .paplay: "WAV, AIFF, CAF (PCM, float, G.711), Ogg, FLAC, MP3 through libsndfile"
    case .ffplay: "what FFmpeg decodes"
    case .aplay: "WAV with PCM or float samples only"
    case .other: "whatever it is given"
    }
  }

  /// The command that runs the player found at `path`: ffplay without a window, exiting at the
  /// end, printing errors only (it exits 0 when it cannot open the audio output, so its stderr
  /// is how a failure shows); aplay without its "Playing WAVE" line, so stderr holds errors only.
  public func command(at path: String) -> [String] {
    switch self {
    case .ffplay: [path] + Self.ffplayOptions
    case .aplay: [path, "-q"]
    default: [path]
    }
  }

  static let ffplayOptions = ["-nodisp", "-autoexit", "-hide_banner", "-loglevel", "error"]

  /// A configured command, completed where the program needs it to play a sound unattended:
  /// ffplay gets `-nodisp -autoexit` and error-only output unless the command names them.
  public static func completing(_ command: [String]) -> [String] {
    guard SoundPlayerKind(command: command) == .ffplay else { return command }
    var completed = command
    for option in ["-nodisp", "-autoexit", "-hide_banner"] where !command.contains(option) {
      completed.append(option)
    }
    if !command.contains("-loglevel") && !command.contains("-v") {
      completed += ["-loglevel", "error"]
    }
    return completed
  }

  /// Whether anything on stderr means the sound did not play, whatever the exit status: ffplay
  /// at `-loglevel error` exits 0 after "audio open failed".
  public var stderrMeansFailure: Bool { self == .ffplay }

  /// The player's arguments for `sound` (the command's own after its program, then a volume,
  /// then the file: the theme's default file for the default sound); nil when it is silent. A
  /// critical sound's volume is passed to the players that take one (`pw-play --volume=0..1`,
  /// `paplay --volume=0..65536`, `ffplay -volume 0..100`) unless the command already names a
  /// volume; every player also finds it in `CHIME_SOUND_VOLUME`.
  public static func arguments(_ command: [String], sound: SoundChoice) -> [String]? {
    let file: String, volume: Double?
    switch sound {
    case .silent: return nil
    case .file(let path, let v): (file, volume) = (path, v)
    case .themeDefault(let v): (file, volume) = (SoundChoice.defaultThemeFile, v)
    }
    var arguments = Array(command.dropFirst())
    let namesVolume = arguments.contains { $0.hasPrefix("--volume") || $0 == "-volume" }
    if let volume, !namesVolume {
      arguments += volumeArguments(SoundPlayerKind(command: command), volume)
    }
    return arguments + [file]
  }

  /// The volume option in the player's scale; none for a player without one.
  static func volumeArguments(_ kind: SoundPlayerKind, _ volume: Double) -> [String] {
    let v = min(1, max(0, volume))
    switch kind {
    case .pwPlay: return ["--volume=\(v)"]
    case .paplay: return ["--volume=\(Int((v * 65536).rounded()))"]
    case .ffplay: return ["-volume", "\(Int((v * 100).rounded()))"]
    case .aplay, .other: return []
    }
  }
}
