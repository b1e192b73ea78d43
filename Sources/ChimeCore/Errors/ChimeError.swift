/// The error every layer of Chime throws and the wire carries: a status code, a stable
/// machine-readable `reason`, a human message and the path of the offending field.
///
/// Causes (SQL, errno, stack) never go in here; the server logs them and sends only this.
public struct ChimeError: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: StatusCode
  /// Stable identifier, e.g. `NOTIFICATION_INVALID_NO_CONTENT`. Named after Apple's UNError
  /// codes where one fits.
  public var reason: String
  public var message: String
  /// Dotted path of the offending field, e.g. `request.content.badge`; empty if none.
  public var field: String

  /// An error with any code and reason, as a peer sent it. Chime's own errors use
  /// `init(_:_:field:)` with a catalogued `Reason`.
  public init(_ code: StatusCode, reason: String, _ message: String, field: String = "") {
    self.code = code
    self.reason = reason
    self.message = message
    self.field = field
  }

  /// An error for a catalogued reason, with the reason's status code:
  /// `ChimeError(.invalidPageSize, "page size must be within 1...1000", field: "page_size")`.
  public init(_ reason: Reason, _ message: String, field: String = "") {
    self.init(reason.code, reason: reason.name, message, field: field)
  }

  /// True when the error carries `reason` (by name: the code a peer sent is not compared).
  public func has(_ reason: Reason) -> Bool {
    self.reason == reason.name
  }

  public var description: String {
    var s = "\(code)"
    if !reason.isEmpty { s += " \(reason)" }
    if !field.isEmpty { s += " [\(field)]" }
    return s + ": " + message
  }
}

extension ChimeError {
  /// INTERNAL `INTERNAL`.
  public static func `internal`(_ message: String = "internal error") -> ChimeError {
    ChimeError(.internal, message)
  }
}
