/// What an Info.plist's NSExtensionAttributes would say about a content extension: how its
/// view starts out and whether it has a media play/pause button. Presenters read them from
/// pending and delivered notifications of the extension's categories.
public struct ExtensionAttributes: Hashable, Sendable {
  /// UNNotificationExtensionInitialContentSizeRatio: height over width of the view at first;
  /// required (nil only from a client that sent none, which `validate` refuses), > 0, finite.
  public var initialContentSizeRatio: Double?
  /// UNNotificationExtensionDefaultContentHidden: the default title/body are not shown under the view.
  public var defaultContentHidden: Bool
  /// UNNotificationExtensionOverridesDefaultTitle: the extension's title replaces the app name.
  public var overridesDefaultTitle: Bool
  /// UNNotificationExtensionUserInteractionEnabled: the view takes input.
  public var userInteractionEnabled: Bool
  /// The media play/pause button (its type `.none` when there is none).
  public var mediaButton: MediaPlayPauseButton

  public init(initialContentSizeRatio: Double?, defaultContentHidden: Bool = false, overridesDefaultTitle: Bool = false,
              userInteractionEnabled: Bool = false, mediaButton: MediaPlayPauseButton = MediaPlayPauseButton()) {
    self.initialContentSizeRatio = initialContentSizeRatio
    self.defaultContentHidden = defaultContentHidden
    self.overridesDefaultTitle = overridesDefaultTitle
    self.userInteractionEnabled = userInteractionEnabled
    self.mediaButton = mediaButton
  }

  /// The largest initial content size ratio accepted (a view ten times as tall as it is wide).
  public static let contentSizeRatioMax = 10.0

  /// `field` prefixes each error's field path (`attributes`).
  ///
  /// - Throws: INVALID_ARGUMENT `CONTENT_SIZE_RATIO_REQUIRED` (none given),
  ///   `INVALID_CONTENT_SIZE_RATIO` (not finite, ≤ 0 or over 10), and what
  ///   `MediaPlayPauseButton.validate` throws.
  public func validate(field: String = "attributes") throws(ChimeError) {
    guard let ratio = initialContentSizeRatio else {
      throw ChimeError(.contentSizeRatioRequired, "a content extension needs an initial content size ratio (height / width, > 0)",
                       field: "\(field).initial_content_size_ratio")
    }
    guard ratio.isFinite, ratio > 0, ratio <= Self.contentSizeRatioMax else {
      throw ChimeError(.invalidContentSizeRatio, "the initial content size ratio is \(ratio); it must be > 0 and at most \(Self.contentSizeRatioMax)",
                       field: "\(field).initial_content_size_ratio")
    }
    try mediaButton.validate(field: "\(field).media_button")
  }
}

/// UNNotificationContentExtensionMediaPlayPauseButtonType.
public enum MediaPlayPauseButtonType: String, Hashable, Sendable, CaseIterable {
  case none, `default`, overlay
}

/// The media play/pause button of a content extension (mediaPlayPauseButtonType, ...Frame,
/// ...TintColor).
public struct MediaPlayPauseButton: Hashable, Sendable {
  public var type: MediaPlayPauseButtonType
  /// Where the button is; required unless `type` is `.none`.
  public var frame: MediaButtonFrame?
  /// The largest coordinate or extent of `frame` accepted, in points.
  public static let frameExtentMax = 10_000.0
  /// `#RRGGBB`, or empty for the presenter's default.
  public var tintColor: String

  public init(type: MediaPlayPauseButtonType = .none, frame: MediaButtonFrame? = nil, tintColor: String = "") {
    self.type = type
    self.frame = frame
    self.tintColor = tintColor
  }

  /// True when the extension has a button the user can press.
  public var isPresent: Bool { type != .none }

  /// - Throws: INVALID_ARGUMENT `INVALID_MEDIA_BUTTON_FRAME` (a button without a frame, or a
  ///   frame with a coordinate that is not finite, negative or over 10 000, or an empty
  ///   extent), `INVALID_TINT_COLOR` (a tint that is not `#RRGGBB`).
  public func validate(field: String = "media_button") throws(ChimeError) {
    if let frame {
      let values = [("x", frame.x), ("y", frame.y), ("width", frame.width), ("height", frame.height)]
      for (name, value) in values where !(value.isFinite && value >= 0 && value <= MediaPlayPauseButton.frameExtentMax) {
        throw ChimeError(.invalidMediaButtonFrame, "the media button frame's \(name) is \(value); it must be 0…\(Int(MediaPlayPauseButton.frameExtentMax))",
                         field: "\(field).frame.\(name)")
      }
      for (name, value) in values.suffix(2) where value == 0 {
        throw ChimeError(.invalidMediaButtonFrame, "the media button frame's \(name) is 0", field: "\(field).frame.\(name)")
      }
    } else if isPresent {
      throw ChimeError(.invalidMediaButtonFrame, "a media play/pause button needs a frame", field: "\(field).frame")
    }
    guard tintColor.isEmpty || Self.isColor(tintColor) else {
      throw ChimeError(.invalidTintColor, "the media button tint \"\(tintColor)\" is not a colour like #RRGGBB", field: "\(field).tint_color")
    }
  }

  /// True for `#` and six hexadecimal digits.
  static func isColor(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return false }
    return bytes.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) }
  }
}
