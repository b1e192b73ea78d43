import ChimeCore
import ChimeSystem
import Logging

/// Plays the sounds Chime plays itself, never on the loop thread (inspecting, opening and
/// playing run on the work pool). Each sound goes the way `SoundRoute` decides from what its
/// file's bytes are: through `--sound-player` when given; else libcanberra (a file by path, the
/// default sound as the theme's `message-new-instant` event) when a context opens, and the
/// players found on PATH (`SoundPlayerKind.searched`) for what libcanberra cannot decode or
/// when it has no audio output. A player is given only a file it decodes (aplay never gets the
/// Ogg default sound); when none here does, that delivery reports presentation-failed with why.
/// A player gets the file as its last argument and a critical sound's volume (0...1) in
/// `CHIME_SOUND_VOLUME`; its stdout and stderr are captured and logged as one line under its
/// name. With nothing to play through, deliveries are silent after one warning. Players run one
/// at a time (a lane of their own), so sounds never hold more than one of the pool threads that
/// commits and reads share. Loop thread only.
final class SoundPlayer {
  private struct Request {
    var sound: SoundChoice
    var app: String
    var identifier: String
    var failed: (PresentationFailure) -> Void
    /// For a ring's play (`playOnce`): stops it early, and hears when it is over (true: it
    /// played, or was stopped; false: it could not be played).
    var stop: SoundStop?
    var ended: ((Bool) -> Void)?

    func finish(_ played: Bool) { ended?(played) }

    func failure(_ reason: String) -> PresentationFailure {
      PresentationFailure(presenter: "sound", app: app, identifier: identifier, reason: reason)
    }
  }

  private let loop: EventLoop
  private let logger: Logger
  /// False until libcanberra was tried (on the work pool); sounds asked for meanwhile wait.
  private var ready = false
  private var canberra: CanberraContext?
  /// The configured player, or those found on PATH, in order of preference.
  let players: [[String]]
  private var waiting: [Request] = []
  private let lane: FileLane
  /// A player that outlives this is killed: no sound is that long.
  static let playerTimeoutMillis = 60_000
  /// The most of a player's output kept for the log.
  static let playerOutputBytes = 2048

  init(loop: EventLoop, configured: String?, logger: Logger) {
    self.loop = loop
    self.logger = logger
    lane = FileLane(loop: loop, width: 1)
    if let configured, case let words = configured.split(separator: " ").map(String.init), !words.isEmpty {
      players = [SoundPlayerKind.completing(words)]
      decided()
      return
    }
    players = SoundPlayerKind.searched.compactMap { kind in Subprocess.which(kind.rawValue).map(kind.command(at:)) }
    loop.runBlocking({ CanberraContext.open() }, then: { [self] opened in
      switch opened {
      case .success(let context): canberra = context
      case .failure(let error): logger.info("libcanberra unavailable", metadata: ["error": "\(error)"])
      }
      decided()
    })
  }

  private var isSilent: Bool { canberra == nil && players.isEmpty }

  private func decided() {
    ready = true
    let names = players.map { $0.joined(separator: " ") }
    if isSilent {
      let searched = SoundPlayerKind.searched.map(\.rawValue).joined(separator: ", ")
      logger.warning("no way to play sounds: libcanberra found no audio driver and none of \(searched) is on PATH (set --sound-player); deliveries are silent")
    } else if canberra != nil {
      logger.info("sounds play through libcanberra", metadata: ["players": "\(names.joined(separator: ", "))"])
    } else {
      logger.info("sounds play through a player", metadata: ["players": "\(names.joined(separator: ", "))"])
    }
    let requests = waiting
    waiting.removeAll()
    for request in requests { play(request) }
  }

  func play(_ sound: SoundChoice, app: String, identifier: String, failed: @escaping (PresentationFailure) -> Void) {
    play(Request(sound: sound, app: app, identifier: identifier, failed: failed))
  }

  /// Plays `sound` once, as `play` does, and calls `ended` on the loop when that play is over
  /// (false: it could not be played; `failed` heard why). `stop` ends it early: a player is
  /// signalled by its pid, a libcanberra sound cancelled. What an alarm's ring repeats.
  func playOnce(_ sound: SoundChoice, app: String, identifier: String, stop: SoundStop,
                failed: @escaping (PresentationFailure) -> Void, ended: @escaping (Bool) -> Void) {
    play(Request(sound: sound, app: app, identifier: identifier, failed: failed, stop: stop, ended: ended))
  }

  private func play(_ request: Request) {
    guard !request.sound.isSilent else { return request.finish(false) }
    guard ready else {
      waiting.append(request)
      return
    }
    guard !isSilent else { return request.finish(false) }
    let path: String
    switch request.sound {
    case .file(let p, _): path = p
    default: path = SoundChoice.defaultThemeFile
    }
    loop.runBlocking({ Self.inspect(path) }, then: { [self] file in
      route(request, file)
    })
  }

  /// What the file's bytes are, read the way a player opens it (following a link).
  private static func inspect(_ path: String) -> SoundFileKind {
    do throws(RegularFile.OpenFailure) {
      return try RegularFile.withByteSource(FileSystem.realPath(path) ?? path) { source in
        SoundFileKind(inspection: Result { () throws(ChimeError) in try SoundInspector.inspect(source) })
      }
    } catch {
      return .unplayable(error.message)
    }
  }

  private func route(_ request: Request, _ file: SoundFileKind) {
    switch SoundRoute.decide(request.sound, file: file, canberra: canberra != nil, players: players) {
    case .fail(let reason):
      request.failed(request.failure(reason))
      request.finish(false)
    case .play(let ways):
      play(request, file: file, ways: ways[...])
    }
  }

  private func play(_ request: Request, file: SoundFileKind, ways: ArraySlice<SoundRoute.Way>) {
    switch ways.first {
    case .canberra?:
      playCanberra(request, file: file, next: ways.dropFirst())
    case .player(let command)?:
      playCommand(command, request)
    case nil:
      // Only libcanberra was left, and it could not: what else plays the file is decided anew.
      route(request, file)
    }
  }

  private func playCanberra(_ request: Request, file kind: SoundFileKind, next: ArraySlice<SoundRoute.Way>) {
    guard let context = canberra else {
      play(request, file: kind, ways: next)
      return
    }
    let file: String?, event: String?, volume: Double?
    switch request.sound {
    case .file(let path, let v): (file, event, volume) = (path, nil, v)
    case .themeDefault(let v): (file, event, volume) = (nil, SoundChoice.defaultEventID, v)
    case .silent: return
    }
    let stop = request.stop, timeout = Self.playerTimeoutMillis
    let finished = { [self] (played: CanberraContext.Played) in
      if !played.alsaSaid.isEmpty {
        // ALSA's own words, one line under libcanberra's name.
        logger.log(level: played.error == nil ? .info : .warning, "libcanberra: \(played.alsaSaid)",
                   metadata: ["player": "libcanberra", "app": "\(request.app)", "id": "\(request.identifier)"])
      }
      guard let error = played.error else {
        logger.debug(stop == nil ? "sound started" : "sound played", metadata: ["backend": "libcanberra", "app": "\(request.app)",
                                                                                "id": "\(request.identifier)"])
        return request.finish(true)
      }
      if error.isAboutTheSound, file != nil {
        // A file libcanberra cannot decode: the next way plays this one; libcanberra stays for
        // the rest.
        logger.info("libcanberra cannot play this file", metadata: ["error": "\(error)", "file": "\(file ?? "")"])
        if next.isEmpty {
          request.failed(request.failure("\(error) (\(file ?? "")); no player here plays it"))
          request.finish(false)
        } else {
          play(request, file: kind, ways: next)
        }
        return
      }
      // No device or server behind libcanberra: players play this one and the rest.
      canberra = nil
      if players.isEmpty {
        logger.warning("libcanberra cannot play and no player is on PATH (set --sound-player); deliveries are silent",
                       metadata: ["error": "\(error)"])
        request.failed(request.failure("\(error)"))
        request.finish(false)
      } else {
        logger.warning("libcanberra cannot play; sounds play through a player from now on",
                       metadata: ["error": "\(error)", "players": "\(players.map { $0.joined(separator: " ") }.joined(separator: ", "))"])
        route(request, kind)
      }
    }
    guard let ringStop = stop else {
      return loop.runBlocking({ context.play(file: file, eventID: event, volume: volume) }, then: finished)
    }
    // A ring's play holds its pool thread until the sound ends: in the sound lane, as players
    // are, so rings never hold more than one of the threads that commits and reads share.
    lane.run({
      // A ring that ended while this play waited for the lane plays nothing.
      guard !ringStop.isStopped else { return CanberraContext.Played(error: nil, alsaSaid: "") }
      return context.playToEnd(file: file, eventID: event, volume: volume, stop: ringStop, timeoutMillis: timeout)
    }, then: finished,
             refuse: { [logger] in
               logger.info("sound not played: chimed is stopping", metadata: ["app": "\(request.app)", "id": "\(request.identifier)"])
               request.finish(false)
             })
  }

  private func playCommand(_ command: [String], _ request: Request) {
    guard let arguments = SoundPlayerKind.arguments(command, sound: request.sound) else { return request.finish(false) }
    var environment: [String: String] = [:]
    switch request.sound {
    case .file(_, let volume?), .themeDefault(let volume?): environment["CHIME_SOUND_VOLUME"] = "\(volume)"
    default: break
    }
    let argv = [command[0]] + arguments
    let extra = environment
    let name = command[0].split(separator: "/").last.map(String.init) ?? command[0]
    let kind = SoundPlayerKind(command: command)
    let slot = request.stop?.process
    lane.run({
      Subprocess.capture(argv, environment: extra, timeoutMillis: Self.playerTimeoutMillis, maxOutputBytes: Self.playerOutputBytes,
                         slot: slot)
    }, then: { [logger] captured in
      if slot?.isStopped == true {
        // Stopped on purpose (its ring ended): no failure, whatever the signal made it say.
        logger.debug("sound stopped", metadata: ["backend": "\(name)", "app": "\(request.app)", "id": "\(request.identifier)"])
        return request.finish(true)
      }
      let said = Self.oneLine(captured.stderr + captured.stdout)
      let failed = !captured.outcome.succeeded || (kind.stderrMeansFailure && !Self.oneLine(captured.stderr).isEmpty)
      if !said.isEmpty {
        // The player's own words (ALSA's among them), one line under its name.
        logger.log(level: failed ? .warning : .info, "\(name): \(said)",
                   metadata: ["player": "\(name)", "app": "\(request.app)", "id": "\(request.identifier)"])
      }
      if failed {
        let ending = captured.outcome.succeeded ? nil : "\(captured.outcome)"
        let stderr = String(decoding: captured.stderr, as: UTF8.self)
        request.failed(request.failure(PlayerFailure.describe(player: name, stderr: stderr, ending: ending)))
        request.finish(false)
      } else {
        logger.debug("sound played", metadata: ["backend": "\(name)", "app": "\(request.app)", "id": "\(request.identifier)"])
        request.finish(true)
      }
    }, refuse: { [logger] in
      logger.info("sound not played: chimed is stopping", metadata: ["app": "\(request.app)", "id": "\(request.identifier)"])
      request.finish(false)
    })
  }

  /// A program's output as one log line: its lines joined with " | ", control bytes dropped.
  static func oneLine(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
      .split(whereSeparator: \.isNewline)
      .map { line in String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).trimmingCharacters(in: " \t") }
      .filter { !$0.isEmpty }
      .joined(separator: " | ")
  }

  /// Plays no more sounds through a player; the one playing goes on to its end.
  func stop() {
    lane.close()
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let c = s.first, set.contains(c) { s = s.dropFirst() }
    while let c = s.last, set.contains(c) { s = s.dropLast() }
    return String(s)
  }
}
