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
  /// sound) last; nil when it is silent.
  public static func playerArguments(_ player: [String], sound: SoundChoice) -> [String]? {
    switch sound {
    case .silent: nil
    case .file(let path, _): Array(player.dropFirst()) + [path]
    case .themeDefault: Array(player.dropFirst()) + [SoundChoice.defaultThemeFile]
    }
  }
}
