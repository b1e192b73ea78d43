public import ChimeCore

/// Why a byte stream could not be split into frames. After one, the stream cannot be resynced:
/// the connection must end (with `chimeError` as its status, where there is a peer to tell).
public struct FramingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An opaque code, so new ones can be added without breaking `switch`es.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Wrapped: Hashable, Sendable {
      case frameTooLarge
      case malformedFrame
    }

    private let wrapped: Wrapped

    /// A length prefix over the decoder's limit (RESOURCE_EXHAUSTED, `FRAME_TOO_LARGE`).
    public static let frameTooLarge = Code(wrapped: .frameTooLarge)
    /// Bytes that are not a `chime.v1.Frame`, or a frame with no kind
    /// (INVALID_ARGUMENT, `MALFORMED_FRAME`).
    public static let malformedFrame = Code(wrapped: .malformedFrame)

    /// The catalogued reason the code maps to, which also gives the status code.
    public var reason: Reason {
      switch wrapped {
      case .frameTooLarge: .frameTooLarge
      case .malformedFrame: .malformedFrame
      }
    }

    /// The stable reason the code maps to, e.g. `FRAME_TOO_LARGE`.
    public var description: String { reason.name }
  }

  public var code: Code
  public var message: String

  public init(code: Code, message: String) {
    self.code = code
    self.message = message
  }

  /// The status to send or throw: RESOURCE_EXHAUSTED `FRAME_TOO_LARGE` or INVALID_ARGUMENT
  /// `MALFORMED_FRAME`.
  public var chimeError: ChimeError {
    ChimeError(code.reason, message)
  }

  public var description: String { "\(code): \(message)" }

  static func tooLarge(length: Int, limit: Int) -> FramingError {
    FramingError(code: .frameTooLarge, message: "frame of \(length) bytes is over the limit of \(limit) bytes")
  }

  static func malformed(_ message: String) -> FramingError {
    FramingError(code: .malformedFrame, message: message)
  }
}

extension ChimeError {
  /// The status a framing error ends a connection with.
  public init(_ error: FramingError) {
    self = error.chimeError
  }
}
