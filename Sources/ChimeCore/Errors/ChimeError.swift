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

  public init(_ code: StatusCode, reason: String, _ message: String, field: String = "") {
    self.code = code
    self.reason = reason
    self.message = message
    self.field = field
  }

  public var description: String {
    var s = "\(code)"
    if !reason.isEmpty { s += " \(reason)" }
    if !field.isEmpty { s += " [\(field)]" }
    return s + ": " + message
  }
}

extension ChimeError {
  public static func invalidArgument(_ reason: String, _ message: String, field: String = "") -> ChimeError {
    ChimeError(.invalidArgument, reason: reason, message, field: field)
  }

  public static func unimplemented(_ what: String) -> ChimeError {
    ChimeError(.unimplemented, reason: "UNIMPLEMENTED", "\(what) is not implemented yet")
  }

  public static func `internal`(_ message: String = "internal error") -> ChimeError {
    ChimeError(.internal, reason: "INTERNAL", message)
  }

  public static func notFound(_ reason: String, _ message: String, field: String = "") -> ChimeError {
    ChimeError(.notFound, reason: reason, message, field: field)
  }
}
