/// A notification's sound (UNNotificationSound).
public struct Sound: Hashable, Sendable {
  public enum Kind: Int, Hashable, Sendable {
    case none = 1
    case `default` = 2
    case named = 3
    case defaultCritical = 4
    case criticalNamed = 5
  }

  public var kind: Kind
  /// File name for `.named` and `.criticalNamed`.
  public var name: String
  /// Critical alert volume, 0...1.
  public var volume: Double?

  public init(kind: Kind, name: String = "", volume: Double? = nil) {
    self.kind = kind
    self.name = name
    self.volume = volume
  }

  public static let none = Sound(kind: .none)
  public static let `default` = Sound(kind: .default)
  public static func named(_ name: String) -> Sound { Sound(kind: .named, name: name) }

  public var isCritical: Bool { kind == .defaultCritical || kind == .criticalNamed }
}

/// What the daemon made of a request's sound when it was added (and again at delivery).
public struct SoundResolution: Hashable, Sendable {
  public enum Plays: String, Hashable, Sendable {
    case named, `default`, none
  }

  public var plays: Plays
  public var path: String = ""
  /// `SOUND_NOT_FOUND`, `SOUND_UNSUPPORTED_FORMAT`, `SOUND_TOO_LONG`, `SOUND_CORRUPT`, or empty.
  public var reason: String = ""
  public var message: String = ""
  public var container: String = ""
  public var codec: String = ""
  public var channels: UInt32 = 0
  public var sampleRate: Double = 0
  public var frames: UInt64 = 0
  public var durationSeconds: Double = 0
  public var criticalDowngraded: Bool = false

  public init(plays: Plays) { self.plays = plays }
}
