/// Which way one sound is played, from what its file is and what is at hand to play it. Pure:
/// the sound player inspects the file, finds the players and opens libcanberra, then carries
/// this out.
public enum SoundRoute {
  /// One way to play a sound.
  public enum Way: Hashable, Sendable {
    /// libcanberra: the default sound as the theme's event (its own lookup), a file by path.
    case canberra
    /// A player command; the file (and a volume) are added by `SoundPlayerKind.arguments`.
    case player([String])
  }

  public enum Decision: Hashable, Sendable {
    /// The ways to try, in order: the first plays it; when libcanberra refuses the file (it
    /// cannot decode it) or has no audio output, the next one does.
    case play([Way])
    /// Nothing here plays it: the delivery's presentation-failed reason.
    case fail(String)
  }

  /// - Parameters:
  ///   - sound: what is played (never `.silent`).
  ///   - file: what the inspector made of the file a player would be given (the theme's
  ///     default file for the default sound).
  ///   - canberra: whether a libcanberra context is open to try.
  ///   - players: the player commands at hand, in order of preference (the configured one, or
  ///     those found on PATH).
  public static func decide(_ sound: SoundChoice, file: SoundFileKind, canberra: Bool, players: [[String]]) -> Decision {
    var ways: [Way] = []
    if canberra && canberraMayPlay(sound, file) { ways.append(.canberra) }
    ways += players.filter { SoundPlayerKind(command: $0).plays(file) }.map(Way.player)
    if !ways.isEmpty { return .play(ways) }
    let path: String
    switch sound {
    case .file(let p, _): path = p
    default: path = SoundChoice.defaultThemeFile
    }
    if case .unplayable(let why) = file {
      let hint = path == SoundChoice.defaultThemeFile ? " (it comes with sound-theme-freedesktop)" : ""
      return .fail("cannot play \(path): \(why)\(hint)")
    }
    let found = players.isEmpty ? (canberra ? "libcanberra, which cannot decode it" : "nothing")
      : players.map { command in
        let program = command.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? ""
        return "\(program) (\(SoundPlayerKind(command: command).playsInWords))"
      }.joined(separator: ", ")
    return .fail("no player here plays \(path) (\(file)): found \(found); install pipewire-bin (pw-play), "
      + "pulseaudio-utils (paplay) or ffmpeg (ffplay), or set --sound-player")
  }

  /// libcanberra decodes WAV with 8- or 16-bit PCM and Ogg Vorbis; a file outside the
  /// inspector's containers may be Ogg Vorbis, so it tries (and says so when it is not). The
  /// default sound it finds in the sound theme itself, whatever the theme file is.
  static func canberraMayPlay(_ sound: SoundChoice, _ file: SoundFileKind) -> Bool {
    if case .themeDefault = sound { return true }
    switch file {
    case .otherContainer: return true
    case .inspected(let container, let codec, let bits): return container == .wav && codec == .lpcm && (bits == 8 || bits == 16)
    case .unplayable: return false
    }
  }
}
