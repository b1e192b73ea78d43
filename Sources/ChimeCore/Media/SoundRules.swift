/// UNNotificationSound's rules for a custom sound file: a playable encoding, shorter than 30
/// seconds, else the default sound plays and the resolution says why.
public enum SoundRules {
  /// A sound this long or longer plays the default sound instead.
  public static let maximumSeconds = 30

  /// True when `frames` at `sampleRate` last 30 seconds or more, decided exactly:
  /// `frames ≥ 30 × sampleRate`, in integers when the rate is a whole number (it nearly always
  /// is), else in `Double` (the product of 30 and a `Double` rate). No rounding of the duration
  /// to tenths: 239,999 frames at 8 kHz (29.999875 s) plays, 240,000 (30.0 s) does not.
  public static func isTooLong(frames: UInt64, sampleRate: Double) -> Bool {
    guard sampleRate.isFinite, sampleRate > 0 else { return false }
    if sampleRate.rounded(.towardZero) == sampleRate, sampleRate < 9.0e15 {
      let (limit, overflow) = UInt64(sampleRate).multipliedReportingOverflow(by: UInt64(maximumSeconds))
      return !overflow && frames >= limit
    }
    return Double(frames) >= Double(maximumSeconds) * sampleRate
  }

  /// The verdict on a file whose facts were read: plays `named` when the codec is playable
  /// (linear PCM of 1…32 bits, 32- or 64-bit float, IMA4, µ-law, a-law) and it is shorter than
  /// 30 s; else `default` with reason `SOUND_UNSUPPORTED_FORMAT` or `SOUND_TOO_LONG`.
  public static func verdict(_ facts: SoundFacts, path: String = "") -> SoundResolution {
    var r = SoundResolution(plays: .named)
    r.path = path
    r.container = facts.container.rawValue
    r.codec = facts.codec.rawValue
    r.channels = facts.channels
    r.sampleRate = facts.sampleRate
    r.frames = facts.frames ?? 0
    r.durationSeconds = facts.durationSeconds
    if let problem = unplayable(facts) {
      r.plays = .default
      r.reason = Reason.soundUnsupportedFormat.name
      r.message = problem
    } else if facts.frames == 0 {
      r.plays = .default
      r.reason = Reason.soundCorrupt.name
      r.message = "the \(facts.container.rawValue.uppercased()) file holds no audio (0 frames)"
    } else if let frames = facts.frames, isTooLong(frames: frames, sampleRate: facts.sampleRate) {
      r.plays = .default
      r.reason = Reason.soundTooLong.name
      r.message = "the sound lasts \(facts.durationSeconds) s (\(frames) frames at \(facts.sampleRate) Hz); sounds of \(maximumSeconds) s or longer play the default sound"
    }
    return r
  }

  /// The verdict when the inspector refused the file: `default` with its reason
  /// (`SOUND_CORRUPT`, `SOUND_UNSUPPORTED_FORMAT`; a read failure counts as `SOUND_CORRUPT`).
  public static func verdict(failure: ChimeError, path: String = "") -> SoundResolution {
    var r = SoundResolution(plays: .default)
    r.path = path
    r.reason = (failure.has(.soundUnsupportedFormat) ? Reason.soundUnsupportedFormat : .soundCorrupt).name
    r.message = failure.message
    return r
  }

  /// Inspects and judges in one step; never throws.
  public static func resolve(_ source: some ByteSource, path: String = "") -> SoundResolution {
    do throws(ChimeError) {
      return verdict(try SoundInspector.inspect(source), path: path)
    } catch {
      return verdict(failure: error, path: path)
    }
  }

  private static func unplayable(_ f: SoundFacts) -> String? {
    let where_ = "\(f.container.rawValue.uppercased())"
    guard f.codec.isPlayable else {
      return "\(where_) with \(f.codec) audio is not playable: a sound must be linear PCM, IMA4, µ-law or a-law"
    }
    switch f.codec {
    case .lpcm:
      guard f.bitsPerSample >= 1, f.bitsPerSample <= 32 else {
        return "\(where_) linear PCM of \(f.bitsPerSample) bits is not playable"
      }
    case .float:
      guard f.bitsPerSample == 32 || f.bitsPerSample == 64 else {
        return "\(where_) float PCM of \(f.bitsPerSample) bits is not playable"
      }
    case .ulaw where f.container == .wav, .alaw where f.container == .wav:
      // WAV stores G.711 as 8-bit codes (AIFF-C's header names the 16-bit decoded size instead).
      guard f.bitsPerSample == 8 else {
        return "WAV \(f.codec) of \(f.bitsPerSample) bits per sample is not playable: G.711 in WAV is 8 bits"
      }
    default:
      break
    }
    guard f.frames != nil else { return "\(where_) \(f.codec) audio without a frame count" }
    return nil
  }
}
