/// The three attachment classes of UNNotificationAttachment, each with its size limit.
public enum MediaClass: String, Hashable, Sendable, CaseIterable {
  case audio, image, movie

  /// The largest accepted file, in bytes.
  ///
  /// "MB" in Apple's table is read as the decimal megabyte, 10^6 bytes: audio 5,000,000,
  /// image 10,000,000, movie 50,000,000. Of the two readings it is the smaller, so every file
  /// Chime accepts is also within the limit under the binary reading (2^20): a client never
  /// gets an attachment accepted here that the reference platform would refuse for its size.
  public var byteLimit: Int {
    switch self {
    case .audio: 5_000_000
    case .image: 10_000_000
    case .movie: 50_000_000
    }
  }

  /// The largest limit of any class; no attachment may be bigger.
  public static let maxByteLimit = 50_000_000
}

/// An attachment type, named by the UTI reported to clients. Decided by the bytes.
public enum MediaType: String, Hashable, Sendable, CaseIterable {
  case aiff = "public.aiff-audio"
  case wav = "com.microsoft.waveform-audio"
  case mp3 = "public.mp3"
  case mpeg4Audio = "public.mpeg-4-audio"
  case jpeg = "public.jpeg"
  case gif = "com.compuserve.gif"
  case png = "public.png"
  case mpeg = "public.mpeg"
  case mpeg2Video = "public.mpeg-2-video"
  case mpeg4 = "public.mpeg-4"
  case avi = "public.avi"

  /// The UTI, e.g. `public.png`.
  public var uti: String { rawValue }

  public var mediaClass: MediaClass {
    switch self {
    case .aiff, .wav, .mp3, .mpeg4Audio: .audio
    case .jpeg, .gif, .png: .image
    case .mpeg, .mpeg2Video, .mpeg4, .avi: .movie
    }
  }

  /// The type a type hint names: the reported UTIs and three common synonyms
  /// (`public.aifc-audio`, `com.apple.m4a-audio`, `com.apple.m4v-video`).
  /// Nil for anything else.
  public init?(uti: String) {
    if let exact = MediaType(rawValue: uti) {
      self = exact
      return
    }
    switch uti {
    case "public.aifc-audio": self = .aiff
    case "com.apple.m4a-audio": self = .mpeg4Audio
    case "com.apple.m4v-video": self = .mpeg4
    default: return nil
    }
  }
}
