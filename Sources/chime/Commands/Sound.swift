import ArgumentParser
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime sound`: local checks of notification sound files. Named `SoundCommand` so it does not
/// shadow ChimeCore's `Sound` model type inside this module.
struct SoundCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sound",
    abstract: "Check notification sound files (UNNotificationSound rules).",
    subcommands: [
      Inspect.self,
      Check.self,
    ]
  )
}

extension SoundCommand {
  struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "inspect",
      abstract: "Read a sound file's headers and say whether it would play as itself (no daemon needed).",
      discussion: """
        A sound plays as itself when it is AIFF, AIFF-C, WAV or CAF holding linear PCM (1–32 \
        bits), 32- or 64-bit float, IMA4, µ-law or a-law, and lasts less than 30 seconds. \
        Otherwise the default sound plays and the reason says why: SOUND_NOT_FOUND (missing, \
        a directory, or a symlink, which is not followed), SOUND_UNSUPPORTED_FORMAT, SOUND_TOO_LONG or \
        SOUND_CORRUPT. Exits 0 only when the file would play as itself.

        Examples:
          chime sound inspect ding.caf
          chime sound inspect alarm.wav --json
        """
    )

    @Argument(help: "The sound file (a relative path is taken from the current directory).")
    var file: String

    @Flag(help: "Print JSON: {plays, reason, message, path, container, codec, channels, sample_rate, bits_per_sample, frames, duration_seconds}.")
    var json = false

    func run() throws {
      let verdict = SoundVerdict.inspect(path: LocalFile.absolute(file))
      if json {
        JSONOutput.print(VerdictLine.object(verdict.lines))
      } else {
        print(VerdictLine.render(verdict.lines), terminator: "")
      }
      if verdict.resolution.plays != .named { throw ExitCode(1) }
    }
  }
}

/// What `chime sound inspect` found: the daemon's resolution of the file, and the facts its
/// headers gave (nil when they could not be read).
struct SoundVerdict {
  var resolution: SoundResolution
  var facts: SoundFacts?

  /// Opens the file as the daemon will, reads it with `SoundInspector` and judges it with
  /// `SoundRules`. A missing file, a directory, or a symlink (never followed here) is
  /// `SOUND_NOT_FOUND`; one that is there but cannot be read as a file (a FIFO, no permission)
  /// is `SOUND_CORRUPT`, as the daemon judges a sound it found but cannot open.
  static func inspect(path: String) -> SoundVerdict {
    do throws(RegularFile.OpenFailure) {
      return try RegularFile.withByteSource(path) { source in
        do throws(ChimeError) {
          let facts = try SoundInspector.inspect(source)
          return SoundVerdict(resolution: SoundRules.verdict(facts, path: path), facts: facts)
        } catch {
          return SoundVerdict(resolution: SoundRules.verdict(failure: error, path: path))
        }
      }
    } catch {
      var resolution = SoundResolution(plays: .default)
      resolution.path = path
      switch error.kind {
      case .missing, .symlink: resolution.reason = Reason.soundNotFound.name
      case .notRegular, .unreadable: resolution.reason = Reason.soundCorrupt.name
      }
      resolution.message = error.message
      if error.kind == .notRegular, isDirectory(path) {
        // Not a broken sound: no sound at all, so the lookup's reason, and the plain fact.
        resolution.reason = Reason.soundNotFound.name
        resolution.message = "\(path) is a directory, not a sound file; give a file in it"
      }
      return SoundVerdict(resolution: resolution)
    }
  }

  private static func isDirectory(_ path: String) -> Bool {
    FileSystem.status(path)?.isDirectory == true
  }

  /// The verdict, then the headers' facts (those the container states).
  var lines: [VerdictLine] {
    let r = resolution
    var list = [VerdictLine("plays", r.plays.rawValue, r.plays.rawValue)]
    if !r.reason.isEmpty { list.append(VerdictLine("reason", r.reason, r.reason)) }
    if !r.message.isEmpty { list.append(VerdictLine("message", r.message, r.message)) }
    list.append(VerdictLine("path", r.path, r.path))
    guard let facts else { return list }
    list += [
      VerdictLine("container", facts.container.rawValue, facts.container.rawValue),
      VerdictLine("codec", facts.codec.rawValue, facts.codec.rawValue),
      VerdictLine("channels", "\(facts.channels)", Int(facts.channels)),
      VerdictLine("rate", NumberText.plain(facts.sampleRate) + " Hz", json: "sample_rate", facts.sampleRate),
    ]
    if facts.bitsPerSample > 0 {
      list.append(VerdictLine("bits", "\(facts.bitsPerSample)", json: "bits_per_sample", Int(facts.bitsPerSample)))
    }
    if let frames = facts.frames {
      list.append(VerdictLine("frames", "\(frames)", Int(clamping: frames)))
      list.append(VerdictLine("duration", NumberText.seconds(facts.durationSeconds), json: "duration_seconds", facts.durationSeconds))
    }
    return list
  }
}
