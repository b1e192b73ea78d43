import ChimeCore
import ChimeSystem
import Logging

/// Plays the sounds Chime plays itself, never on the loop thread (opening and playing run on
/// the work pool): through `--sound-player` when given; else through libcanberra (a file by
/// path, the default sound as the theme's `message-new-instant` event) when a context opens;
/// else through the first of `pw-play`, `paplay`, `aplay` on PATH, which also takes over when
/// libcanberra cannot play (no audio device or server). A player gets the file as its last
/// argument and a critical sound's volume (0...1) in `CHIME_SOUND_VOLUME`. With nothing,
/// deliveries are silent after one warning (at start-up, or at libcanberra's first failure,
/// which is also reported for its delivery). Players run one at a time (a lane of their own),
/// so sounds never hold more than one of the pool threads that commits and reads share.
/// Loop thread only.
final class SoundPlayer {
  private struct Request {
    var sound: SoundChoice
    var app: String
    var identifier: String
    var failed: (PresentationFailure) -> Void
  }

  private let loop: EventLoop
  private let logger: Logger
  /// nil until libcanberra was tried (on the work pool); sounds asked for meanwhile wait.
  private(set) var backend: SoundBackendChoice?
  private var canberra: CanberraContext?
  /// What plays when libcanberra cannot: a player found on PATH, or silence.
  private let withoutCanberra: SoundBackendChoice
  private var waiting: [Request] = []
  private let players: FileLane
  /// A player that outlives this is killed: no sound is that long.
  static let playerTimeoutMillis = 60_000

  init(loop: EventLoop, configured: String?, logger: Logger) {
    self.loop = loop
    self.logger = logger
    players = FileLane(loop: loop, width: 1)
    var found: [String: String] = [:]
    for name in SoundBackendChoice.knownPlayers {
      if let path = Subprocess.which(name) { found[name] = path }
    }
    withoutCanberra = SoundBackendChoice.choose(configured: configured, canberraOpened: false, foundOnPath: found)
    if configured != nil {
      decided(withoutCanberra)
      return
    }
    loop.runBlocking({ CanberraContext.open() }, then: { [self] opened in
      switch opened {
      case .success(let context):
        canberra = context
        decided(.canberra)
      case .failure(let error):
        logger.info("libcanberra unavailable", metadata: ["error": "\(error)"])
        decided(withoutCanberra)
      }
    })
  }

  private func decided(_ choice: SoundBackendChoice) {
    backend = choice
    switch choice {
    case .silent(let warning): logger.warning("\(warning)")
    case .command(let player): logger.info("sounds play through a player", metadata: ["player": "\(player.joined(separator: " "))"])
    case .canberra: logger.info("sounds play through libcanberra")
    }
    let requests = waiting
    waiting.removeAll()
    for request in requests { play(request) }
  }

  func play(_ sound: SoundChoice, app: String, identifier: String, failed: @escaping (PresentationFailure) -> Void) {
    play(Request(sound: sound, app: app, identifier: identifier, failed: failed))
  }

  private func play(_ request: Request) {
    guard !request.sound.isSilent else { return }
    switch backend {
    case nil: waiting.append(request)
    case .canberra?: playCanberra(request)
    case .command(let player)?: playCommand(player, request)
    case .silent?: break
    }
  }

  private func playCanberra(_ request: Request) {
    guard let context = canberra else { return }
    let file: String?, event: String?, volume: Double?
    switch request.sound {
    case .file(let path, let v): (file, event, volume) = (path, nil, v)
    case .themeDefault(let v): (file, event, volume) = (nil, SoundChoice.defaultEventID, v)
    case .silent: return
    }
    loop.runBlocking({ context.play(file: file, eventID: event, volume: volume) }, then: { [self] error in
      guard let error else {
        logger.debug("sound started", metadata: ["backend": "libcanberra", "app": "\(request.app)", "id": "\(request.identifier)"])
        return
      }
      if error.isAboutTheSound, file != nil {
        // A file libcanberra cannot decode (CAF, AIFF, ...): a player plays this one when
        // there is one; libcanberra stays for the rest.
        if case .command(let player) = withoutCanberra {
          logger.info("libcanberra cannot play this file; a player plays it", metadata: ["error": "\(error)", "file": "\(file ?? "")"])
          playCommand(player, request)
        } else {
          request.failed(PresentationFailure(presenter: "sound", app: request.app, identifier: request.identifier,
                                             reason: "\(error) (\(file ?? "")); no player on PATH to play it"))
        }
      } else if case .command(let player) = withoutCanberra {
        // No device or server behind libcanberra: the player plays this one and the rest.
        logger.warning("libcanberra cannot play; sounds play through a player from now on",
                       metadata: ["error": "\(error)", "player": "\(player.joined(separator: " "))"])
        backend = withoutCanberra
        canberra = nil
        playCommand(player, request)
      } else {
        // Nothing else can play: silent from now on, said once (as when nothing was found).
        logger.warning("libcanberra cannot play and no player is on PATH (set --sound-player); deliveries are silent",
                       metadata: ["error": "\(error)"])
        backend = .silent(warning: "\(error)")
        canberra = nil
        request.failed(PresentationFailure(presenter: "sound", app: request.app, identifier: request.identifier, reason: "\(error)"))
      }
    })
  }

  private func playCommand(_ player: [String], _ request: Request) {
    guard let arguments = SoundBackendChoice.playerArguments(player, sound: request.sound) else { return }
    var environment: [String: String] = [:]
    switch request.sound {
    case .file(_, let volume?), .themeDefault(let volume?): environment["CHIME_SOUND_VOLUME"] = "\(volume)"
    default: break
    }
    let argv = [player[0]] + arguments
    let extra = environment
    players.run({ Subprocess.run(argv, environment: extra, timeoutMillis: Self.playerTimeoutMillis) }, then: { [logger] outcome in
      if outcome.succeeded {
        logger.debug("sound played", metadata: ["backend": "\(player[0])", "app": "\(request.app)", "id": "\(request.identifier)"])
      } else {
        request.failed(PresentationFailure(presenter: "sound", app: request.app, identifier: request.identifier, reason: "\(player[0]) \(outcome)"))
      }
    }, refuse: { [logger] in
      logger.info("sound not played: chimed is stopping", metadata: ["app": "\(request.app)", "id": "\(request.identifier)"])
    })
  }

  /// Plays no more sounds through a player; the one playing goes on to its end.
  func stop() {
    players.close()
  }
}
