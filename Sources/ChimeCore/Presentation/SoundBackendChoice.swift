/// How Chime plays sounds, decided once at start-up. Pure: what was configured and what was
/// found are passed in.
public enum SoundBackendChoice: Hashable, Sendable {
  /// libcanberra, which reached an audio driver.
  case canberra
  /// A player program, given the file as its last argument.
  case command([String])
  /// Nothing found: deliveries are silent (one warning at start-up).
  case silent(warning: String)

  /// The players looked for on PATH when none is configured, in order.
  public static let knownPlayers = ["pw-play", "paplay", "aplay"]

  /// `--sound-player` (split on spaces) wins; else libcanberra when it opened; else the first
  /// known player found on PATH; else silent.
  ///
  /// - Parameters:
  ///   - configured: the `--sound-player` text, nil when not given.
  ///   - canberraOpened: whether a libcanberra context opened (an audio driver is reachable).
  ///   - foundOnPath: full paths of the known players that exist, by name.
  public static func choose(configured: String?, canberraOpened: Bool, foundOnPath: [String: String]) -> SoundBackendChoice {
    if let configured {
      let words = configured.split(separator: " ").map(String.init)
      if !words.isEmpty { return .command(words) }
    }
    if canberraOpened { return .canberra }
    for name in knownPlayers {
      if let path = foundOnPath[name] { return .command([path]) }
    }
    return .silent(warning: "no way to play sounds: libcanberra found no audio driver and none of "
      + knownPlayers.joined(separator: ", ") + " is on PATH (set --sound-player); deliveries are silent")
  }

  /// The player's arguments for `sound`: the file (the theme's default file for the default
  /// sound) last; nil when it is silent. A critical sound's volume is passed to the players
  /// that take one (`pw-play --volume=0..1`, `paplay --volume=0..65536`) unless the command
  /// already names a volume; every player also finds it in `CHIME_SOUND_VOLUME`.
  public static func playerArguments(_ player: [String], sound: SoundChoice) -> [String]? {
    let file: String, volume: Double?
    switch sound {
    case .silent: return nil
    case .file(let path, let v): (file, volume) = (path, v)
    case .themeDefault(let v): (file, volume) = (SoundChoice.defaultThemeFile, v)
    }
    var arguments = Array(player.dropFirst())
    if let volume, let flag = volumeArgument(player.first ?? "", volume), !arguments.contains(where: { $0.hasPrefix("--volume") }) {
      arguments.append(flag)
    }
    return arguments + [file]
  }

  /// `--volume=` in the scale of the player named by `program` (a path or a name), nil for a
  /// player without a volume option.
  static func volumeArgument(_ program: String, _ volume: Double) -> String? {
    let v = min(1, max(0, volume))
    switch program.split(separator: "/").last.map(String.init) ?? program {
    case "pw-play", "pw-cat": return "--volume=\(v)"
    case "paplay": return "--volume=\(Int((v * 65536).rounded()))"
    default: return nil
    }
  }
}
