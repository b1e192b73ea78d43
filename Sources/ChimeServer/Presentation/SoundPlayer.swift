import ChimeCore
import ChimeSystem
import Logging

/// Plays the sounds Chime plays itself, never on the loop thread: through libcanberra when it
/// reached an audio driver, else through a player program (`pw-play`, `paplay`, `aplay` or
/// `--sound-player`) with the file as its last argument and a critical sound's volume (0...1)
/// in `CHIME_SOUND_VOLUME`. With neither, deliveries are silent after one warning at start-up.
/// Loop thread only.
final class SoundPlayer {
  private let loop: EventLoop
  private let logger: Logger
  let backend: SoundBackendChoice
  /// A player that outlives this is killed: no sound is that long.
  static let playerTimeoutMillis = 60_000

  init(loop: EventLoop, configured: String?, logger: Logger) {
    self.loop = loop
    self.logger = logger
    var found: [String: String] = [:]
    for name in SoundBackendChoice.knownPlayers {
      if let path = Subprocess.which(name) { found[name] = path }
    }
    backend = SoundBackendChoice.choose(configured: configured, canberraOpened: false, foundOnPath: found)
    switch backend {
    case .silent(let warning): logger.warning("\(warning)")
    case .command(let player): logger.info("sounds play through a player", metadata: ["player": "\(player.joined(separator: " "))"])
    case .canberra: logger.info("sounds play through libcanberra")
    }
  }

  func play(_ sound: SoundChoice, app: String, identifier: String, failed: @escaping (PresentationFailure) -> Void) {
    guard case .command(let player) = backend, let arguments = SoundBackendChoice.playerArguments(player, sound: sound) else { return }
    var environment: [String: String] = [:]
    switch sound {
    case .file(_, let volume?), .themeDefault(let volume?): environment["CHIME_SOUND_VOLUME"] = "\(volume)"
    default: break
    }
    let argv = [player[0]] + arguments
    let extra = environment
    loop.runBlocking({ Subprocess.run(argv, environment: extra, timeoutMillis: Self.playerTimeoutMillis) }, then: { outcome in
      if !outcome.succeeded {
        failed(PresentationFailure(presenter: "sound", app: app, identifier: identifier, reason: "\(player[0]) \(outcome)"))
      }
    })
  }
}
