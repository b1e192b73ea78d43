/// The container of a sound file (as the wire's `SoundResolution.container` names it).
public enum SoundContainer: String, Hashable, Sendable, CaseIterable {
  case aiff, aifc, wav, caf
}

/// A sound's encoding. The five playable ones have names of their own; anything else is named
/// after what the container says (`mp3`, `aac`, `alac`, `msadpcm`, a four-character code or a
/// WAV format tag such as `wav-0x0055`) so the verdict can say what was found.
public struct SoundCodec: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Linear PCM integers (any byte order).
  public static let lpcm = SoundCodec(rawValue: "lpcm")
  /// Linear PCM IEEE floats, 32 or 64 bits.
  public static let float = SoundCodec(rawValue: "float")
  /// IMA ADPCM: Apple's IMA4 (AIFF-C, CAF) and WAV's IMA/DVI ADPCM.
  public static let ima4 = SoundCodec(rawValue: "ima4")
  /// G.711 µ-law.
  public static let ulaw = SoundCodec(rawValue: "ulaw")
  /// G.711 A-law.
  public static let alaw = SoundCodec(rawValue: "alaw")

  /// One of the encodings a notification sound may use.
  public var isPlayable: Bool {
    self == .lpcm || self == .float || self == .ima4 || self == .ulaw || self == .alaw
  }

  public var description: String { rawValue }
}

/// What the sound inspector read from a file's headers.
public struct SoundFacts: Hashable, Sendable {
  public var container: SoundContainer
  public var codec: SoundCodec
  public var channels: UInt32
  /// Hertz; may be fractional (AIFF's 80-bit and CAF's 64-bit rates).
  public var sampleRate: Double
  /// Bits per sample as stored (4 for IMA ADPCM); 0 where the container does not say.
  public var bitsPerSample: UInt32
  /// Sample frames, from the headers and checked against the data present; nil when the
  /// encoding gives no way to count them (only for unplayable codecs).
  public var frames: UInt64?

  public init(container: SoundContainer, codec: SoundCodec, channels: UInt32, sampleRate: Double, bitsPerSample: UInt32, frames: UInt64?) {
    self.container = container
    self.codec = codec
    self.channels = channels
    self.sampleRate = sampleRate
    self.bitsPerSample = bitsPerSample
    self.frames = frames
  }

  /// frames ÷ sample rate, in seconds (0 when the frames are unknown). For display; the
  /// 30-second rule does not round through it (see `SoundRules.isTooLong`).
  public var durationSeconds: Double {
    guard let frames, sampleRate > 0 else { return 0 }
    return Double(frames) / sampleRate
  }
}
