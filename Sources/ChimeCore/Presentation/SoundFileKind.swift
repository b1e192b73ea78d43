/// What a sound file is, as far as choosing what plays it goes: the sound inspector's answer
/// about its bytes (never its name).
public enum SoundFileKind: Hashable, Sendable, CustomStringConvertible {
  /// AIFF, AIFF-C, WAV or CAF with this encoding: the inspector read the headers.
  case inspected(SoundContainer, SoundCodec, bitsPerSample: UInt32)
  /// Not AIFF, WAV or CAF (an Ogg Vorbis or Opus file such as the default sound, FLAC, MP3,
  /// ...): only a player that recognizes a file by reading it can try it.
  case otherContainer
  /// The file is not there, cannot be read, or its headers are broken: nothing can play it.
  case unplayable(String)

  /// From `SoundInspector.inspect`'s result.
  public init(inspection: Result<SoundFacts, ChimeError>) {
    switch inspection {
    case .success(let facts): self = .inspected(facts.container, facts.codec, bitsPerSample: facts.bitsPerSample)
    case .failure(let error) where error.has(.soundUnsupportedFormat): self = .otherContainer
    case .failure(let error): self = .unplayable(error.message)
    }
  }

  public var description: String {
    switch self {
    case .inspected(let container, let codec, _): "\(container.rawValue.uppercased()) \(codec)"
    case .otherContainer: "not AIFF, WAV or CAF: Ogg, FLAC, MP3 or another"
    case .unplayable(let why): why
    }
  }
}
