import ChimeCore
import ChimeSystem
import FoundationEssentials

extension DoctorChecks {
  /// What would play the default sound, as chimed decides it (`SoundRoute`): whether there is
  /// an audio output at all, and which way the default sound takes.
  func soundCheck(_ configured: String?, environment: [String: String]) -> DoctorCheck {
    if configured == "none" { return DoctorCheck(name: "sound", status: .ok, detail: "sound-player = none: silent") }
    var players: [[String]] = []
    if let configured {
      let words = configured.split(separator: " ").map(String.init)
      let program = words.first ?? ""
      let found = program.contains("/") ? FileManager.default.isExecutableFile(atPath: program) : Subprocess.which(program) != nil
      guard found else {
        return DoctorCheck(name: "sound", status: .warn, detail: "sound-player \(program) not found", hint: "install it or change sound-player")
      }
      players = [SoundPlayerKind.completing(words)]
    } else {
      players = SoundPlayerKind.searched.compactMap { kind in Subprocess.which(kind.rawValue).map(kind.command(at:)) }
    }
    let canberra = configured == nil && Self.canberraInstalled
    let file = Self.inspectDefaultSound()
    let outputs = AudioOutputs.find(environment: environment)
    let sound = SoundChoice.themeDefault(volume: nil)
    let route = Self.describe(SoundRoute.decide(sound, file: file, canberra: canberra, players: players))
    var detail = route
    if canberra, case .fail(let why) = SoundRoute.decide(sound, file: file, canberra: false, players: players) {
      // libcanberra may still find no device when it plays: then only the players are left.
      detail += "; if libcanberra finds no device: nothing plays it (\(why))"
    }
    guard !outputs.isEmpty else {
      return DoctorCheck(name: "sound", status: .warn,
                         detail: "no audio output: no sound device (/dev/snd/pcm*) and no PipeWire or PulseAudio socket under "
                           + "$XDG_RUNTIME_DIR; the default sound would go: \(detail)",
                         hint: "sounds cannot be heard here: each delivery's sound is reported as presentation-failed "
                           + "(set sound-player = none for silence)")
    }
    guard case .play = SoundRoute.decide(sound, file: file, canberra: canberra, players: players) else {
      return DoctorCheck(name: "sound", status: .warn, detail: "\(outputs.joined(separator: ", ")); \(detail)",
                         hint: "install pipewire-bin (pw-play), pulseaudio-utils (paplay) or ffmpeg (ffplay), or set sound-player")
    }
    return DoctorCheck(name: "sound", status: .ok, detail: "\(outputs.joined(separator: ", ")); the default sound plays through \(detail)")
  }

  static func describe(_ decision: SoundRoute.Decision) -> String {
    switch decision {
    case .fail(let why): return "nothing: " + why
    case .play(let ways):
      return ways.map { way in
        switch way {
        case .canberra: "libcanberra (the theme's \(SoundChoice.defaultEventID))"
        case .player(let command): command.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? ""
        }
      }.joined(separator: ", else ")
    }
  }

  static var canberraInstalled: Bool {
    ["/usr/lib/x86_64-linux-gnu/libcanberra.so.0", "/usr/lib/aarch64-linux-gnu/libcanberra.so.0", "/usr/lib/libcanberra.so.0"]
      .contains { FileManager.default.fileExists(atPath: $0) }
  }

  /// What the inspector makes of the default sound's file, as chimed's player reads it.
  static func inspectDefaultSound() -> SoundFileKind {
    let path = SoundChoice.defaultThemeFile
    do throws(RegularFile.OpenFailure) {
      return try RegularFile.withByteSource(FileSystem.realPath(path) ?? path) { source in
        SoundFileKind(inspection: Result { () throws(ChimeError) in try SoundInspector.inspect(source) })
      }
    } catch {
      return .unplayable(error.message)
    }
  }
}

/// Where sound can go: ALSA playback devices, and the PipeWire and PulseAudio sockets under
/// `$XDG_RUNTIME_DIR` (a PulseAudio socket may be PipeWire's pipewire-pulse).
enum AudioOutputs {
  static func find(environment: [String: String], devices: String = "/dev/snd") -> [String] {
    var found: [String] = []
    let pcm = ((try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? [])
      .filter { $0.hasPrefix("pcm") && $0.hasSuffix("p") }.sorted()
    if !pcm.isEmpty { found.append("sound device \(devices)/\(pcm[0])" + (pcm.count > 1 ? " (+\(pcm.count - 1))" : "")) }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      for (name, path) in [("PipeWire", runtime + "/pipewire-0"), ("PulseAudio server", runtime + "/pulse/native")]
      where FileSystem.lstatus(path)?.kind == .socket {
        found.append("\(name) at \(path)")
      }
    }
    return found
  }
}
