/// What an inspector learned about an attachment file: enough for a client to show it and for
/// the options (clip rect, thumbnail time) to be checked against it.
public struct MediaFacts: Hashable, Sendable {
  public var type: MediaType
  public var mediaClass: MediaClass
  /// File size in bytes.
  public var bytes: UInt64
  /// The size a viewer sees, in square pixels: for a movie whose pixels are not square (a DVD,
  /// a Video CD, an MP4 with `pasp`), the stored width × the sample aspect ratio, rounded, and
  /// the stored height; a thumbnail's box and clipping rectangle apply to this. 0 for audio.
  public var width: UInt32
  public var height: UInt32
  /// The size as stored (what the decoder outputs): equal to `width`×`height` where pixels are
  /// square.
  public var pixelWidth: UInt32
  public var pixelHeight: UInt32
  /// Seconds; 0 for still images and where the container does not say.
  /// GIF and APNG: the sum of the frame delays. MP3: exact from the frames walked. MPEG-4: `mvhd`
  /// (a fragmented file: `mehd`, else the sum of its `trun` sample durations). AVI: frames ×
  /// frame period. MPEG-1/2: fields shown ÷ 2 ÷ frame rate. AIFF/WAV: frames ÷ rate.
  public var durationSeconds: Double
  /// Images: frames (1 for a still PNG and JPEG, the image count for GIF, the `acTL` frame
  /// count for an animated PNG). Movies: video frames where the container says (`stsz` or
  /// `trun` sample counts, `avih` total frames, MPEG pictures with field pictures in pairs).
  /// Audio: 0.
  public var frameCount: UInt32

  /// - Parameters:
  ///   - width, height: the display size.
  ///   - pixelWidth, pixelHeight: the stored size when it differs (nil: the display size).
  public init(type: MediaType, bytes: UInt64, width: UInt32 = 0, height: UInt32 = 0, pixelWidth: UInt32? = nil,
              pixelHeight: UInt32? = nil, durationSeconds: Double = 0, frameCount: UInt32 = 0) {
    self.type = type
    self.mediaClass = type.mediaClass
    self.bytes = bytes
    self.width = width
    self.height = height
    self.pixelWidth = pixelWidth ?? width
    self.pixelHeight = pixelHeight ?? height
    self.durationSeconds = durationSeconds
    self.frameCount = frameCount
  }

  /// A GIF or an animated PNG with more than one frame: its thumbnail time is a frame index.
  public var isAnimated: Bool { (type == .gif || type == .png) && frameCount > 1 }

  /// The facts in the form the wire and the store carry.
  public func attachmentInfo(storePath: String = "") -> AttachmentInfo {
    var info = AttachmentInfo()
    info.storePath = storePath
    info.type = type.uti
    info.mediaClass = mediaClass.rawValue
    info.bytes = bytes
    info.width = width
    info.height = height
    info.durationSeconds = durationSeconds
    info.frameCount = frameCount
    return info
  }
}

extension AttachmentInfo {
  /// The inspector's facts, with the path the file was stored at.
  public init(_ facts: MediaFacts, storePath: String = "") {
    self = facts.attachmentInfo(storePath: storePath)
  }
}
