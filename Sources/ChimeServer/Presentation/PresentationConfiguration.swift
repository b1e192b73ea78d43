public import ChimeCore

/// How chimed presents deliveries besides its log (`chimed --presenter`, `--present-command`,
/// `--sound-player`). The default presents nothing and plays nothing (tests, headless use).
public struct PresentationConfiguration: Sendable {
  /// In order; empty: the log only.
  public var presenters: [PresenterKind] = []
  /// The command presenter's program and arguments.
  public var command: [String] = []
  /// A command still running after this is killed (its delivery stands; the failure is reported).
  public var commandTimeoutMillis: Int = 10_000
  /// Whether Chime plays sounds itself.
  public var playSounds: Bool = false
  /// `--sound-player`: a player program (and arguments) used instead of libcanberra; nil: look.
  public var soundPlayer: String?
  /// Where a desktop notification's image comes from (called on the work pool); nil: the
  /// thumbnail the attachment's options describe, rendered once into the store.
  public var thumbnails: (any ThumbnailSource)?

  public init() {}
}
