/// A pushed alert's localization keys (`aps.alert`'s `title-loc-key`, `loc-args`, ...),
/// recorded as given: chimed has no string tables to resolve them with.
public struct AlertLocalization: Hashable, Sendable {
  public var titleLocKey: String = ""
  public var titleLocArgs: [String] = []
  public var subtitleLocKey: String = ""
  public var subtitleLocArgs: [String] = []
  public var locKey: String = ""
  public var locArgs: [String] = []

  public init() {}

  public var isEmpty: Bool {
    titleLocKey.isEmpty && titleLocArgs.isEmpty && subtitleLocKey.isEmpty && subtitleLocArgs.isEmpty && locKey.isEmpty && locArgs.isEmpty
  }

  /// At most this many arguments per key.
  public static let argumentsMax = 32

  /// - Throws: INVALID_ARGUMENT `FIELD_TOO_LONG` (a key or argument over `Limits.textMaxBytes`,
  ///   or more than `argumentsMax` arguments), `FIELD_CONTAINS_NUL`.
  public func validate(field: String) throws(ChimeError) {
    for (name, key, args) in [("title_loc", titleLocKey, titleLocArgs), ("subtitle_loc", subtitleLocKey, subtitleLocArgs), ("loc", locKey, locArgs)] {
      guard args.count <= Self.argumentsMax else {
        throw ChimeError(.fieldTooLong, "at most \(Self.argumentsMax) arguments", field: "\(field).\(name)_args")
      }
      for (path, text) in [("\(name)_key", key)] + args.enumerated().map({ ("\(name)_args[\($0.offset)]", $0.element) }) {
        if text.utf8.count > Limits.textMaxBytes {
          throw ChimeError(.fieldTooLong, "\(path) is \(text.utf8.count) bytes; the limit is \(Limits.textMaxBytes)", field: "\(field).\(path)")
        }
        if text.containsNUL {
          throw ChimeError(.fieldContainsNUL, "\(path) contains a NUL character", field: "\(field).\(path)")
        }
      }
    }
  }
}
