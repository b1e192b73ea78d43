/// Reasons of calls, connections, frames, reaching the daemon and its start-up.
extension Reason {
  // MARK: Calls and connections

  /// The method exists in the protocol but chimed does not implement it yet.
  public static let unimplemented = Reason("UNIMPLEMENTED", .unimplemented)
  /// Something failed inside Chime that the caller cannot fix; the cause is in the log.
  public static let `internal` = Reason("INTERNAL", .internal)
  /// The call's deadline passed before chimed started it.
  public static let deadlineExceeded = Reason("DEADLINE_EXCEEDED", .deadlineExceeded)
  /// chimed is stopping: the call or connection is refused, and work not yet durable is dropped.
  public static let shuttingDown = Reason("SHUTTING_DOWN", .unavailable)
  /// The caller cancelled the call.
  public static let cancelled = Reason("CANCELLED", .cancelled)
  /// The call names a method chimed does not know.
  public static let unknownMethod = Reason("UNKNOWN_METHOD", .unimplemented)
  /// A cancel names a call id that is not in flight on the connection.
  public static let unknownCall = Reason("UNKNOWN_CALL", .notFound)
  /// A call used the reserved call id 0.
  public static let invalidCallID = Reason("INVALID_CALL_ID", .invalidArgument)
  /// A call reused the id of a call still in flight on the connection.
  public static let duplicateCallID = Reason("DUPLICATE_CALL_ID", .invalidArgument)
  /// The peer runs as another user than chimed.
  public static let peerNotAllowed = Reason("PEER_NOT_ALLOWED", .permissionDenied)
  /// A sandboxed peer (Flatpak, Snap) named another app than its own.
  public static let appIDMismatch = Reason("APP_ID_MISMATCH", .permissionDenied)
  /// A sandboxed peer called a method that changes the user's own settings (another app's
  /// settings, Do Not Disturb): only the user's unconfined programs may.
  public static let userSettingFromSandbox = Reason("USER_SETTING_FROM_SANDBOX", .permissionDenied)
  /// A host app's D-Bus connection called before `Register` named its app.
  public static let appNotRegistered = Reason("APP_NOT_REGISTERED", .failedPrecondition)
  /// The peer looks sandboxed but chimed cannot tell as which app (or cannot read its process).
  public static let peerNotIdentified = Reason("PEER_NOT_IDENTIFIED", .permissionDenied)
  /// chimed serves as many connections as it takes (`--max-connections`).
  public static let tooManyConnections = Reason("TOO_MANY_CONNECTIONS", .resourceExhausted)
  /// The connection has as many calls in flight as chimed serves on one (`--max-calls-per-connection`).
  public static let tooManyCalls = Reason("TOO_MANY_CALLS", .resourceExhausted)
  /// chimed already has as many Subscribe streams open as it takes, in all
  /// (`--max-subscribers`) or for the app (`--max-subscribers-per-app`).
  public static let tooManySubscribers = Reason("TOO_MANY_SUBSCRIBERS", .resourceExhausted)
  /// The app id is empty, too long or not reverse-DNS style.
  public static let invalidAppID = Reason("INVALID_APP_ID", .invalidArgument)
  /// A client declared Chime's own app id (`io.github.chime`): only chimed posts and answers
  /// its notifications (the "Allow notifications?" prompts).
  public static let reservedAppID = Reason("RESERVED_APP_ID", .permissionDenied)

  // MARK: Frames and payloads

  /// Bytes that are not a `chime.v1.Frame`, a frame with no kind, or a reply sent to chimed.
  public static let malformedFrame = Reason("MALFORMED_FRAME", .invalidArgument)
  /// A frame over the size limit (1 MiB by default), received or about to be sent.
  public static let frameTooLarge = Reason("FRAME_TOO_LARGE", .resourceExhausted)
  /// A payload that is not the call's message, or a string in it that is not UTF-8.
  public static let malformedPayload = Reason("MALFORMED_PAYLOAD", .invalidArgument)
  /// An enum value this build does not know (a newer peer's).
  public static let unknownEnumValue = Reason("UNKNOWN_ENUM_VALUE", .invalidArgument)
  /// A string holds a NUL character, which the wire cannot carry faithfully.
  public static let fieldContainsNUL = Reason("FIELD_CONTAINS_NUL", .invalidArgument)
  /// A gRPC request broke gRPC's rules over HTTP/2 (a message flag byte other than 0 or 1, a
  /// body ending inside a message, a unary call with no message or several, a malformed
  /// `grpc-timeout`): INTERNAL, as gRPC's HTTP/2 protocol says.
  public static let grpcProtocolViolation = Reason("GRPC_PROTOCOL_VIOLATION", .internal)
  /// A compressed gRPC message, or a `grpc-encoding` other than identity.
  public static let compressionUnsupported = Reason("COMPRESSION_UNSUPPORTED", .unimplemented)
  /// A gRPC request's header list is over chimed's limit (16 KiB).
  public static let headerListTooLarge = Reason("HEADER_LIST_TOO_LARGE", .resourceExhausted)
  /// A `grpc.health.v1.Health` check names a service chimed does not serve.
  public static let serviceUnknown = Reason("SERVICE_UNKNOWN", .notFound)

  // MARK: Reaching the daemon

  /// Nothing accepts connections at the socket path.
  public static let daemonUnavailable = Reason("DAEMON_UNAVAILABLE", .unavailable)
  /// The connection to chimed broke or was closed, or a stream ended early.
  public static let connectionClosed = Reason("CONNECTION_CLOSED", .unavailable)
  /// A client could not decode the daemon's reply (the C and Python clients).
  public static let malformedReply = Reason("MALFORMED_REPLY", .internal)
  /// A client ran out of memory building a call or reading a reply (the C client).
  public static let outOfMemory = Reason("OUT_OF_MEMORY", .resourceExhausted)
  /// A client was given a NULL or out-of-range argument (the C client).
  public static let invalidArgument = Reason("INVALID_ARGUMENT", .invalidArgument)
  /// The socket path is empty or holds a NUL byte.
  public static let invalidSocketPath = Reason("INVALID_SOCKET_PATH", .invalidArgument)
  /// The socket path is longer than a Unix socket address holds (107 bytes).
  public static let socketPathTooLong = Reason("SOCKET_PATH_TOO_LONG", .invalidArgument)

  // MARK: Daemon start-up

  /// chimed could not create its event loop.
  public static let loopFailed = Reason("LOOP_FAILED", .unavailable)
  /// chimed failed while starting up for a reason not covered by another start-up reason.
  public static let startupFailed = Reason("STARTUP_FAILED", .unavailable)
  /// chimed could not listen on its socket.
  public static let listenFailed = Reason("LISTEN_FAILED", .unavailable)
  /// A Unix socket could not be bound or listened on (the message has the system's reason).
  public static let socketListenFailed = Reason("SOCKET_LISTEN_FAILED", .unavailable)
  /// chimed could not create or resolve its data directory.
  public static let dataDirUnavailable = Reason("DATA_DIR_UNAVAILABLE", .unavailable)
  /// Another chimed holds the data directory's lock: two daemons never share a store.
  public static let dataDirInUse = Reason("DATA_DIR_IN_USE", .unavailable)
  /// chimed's configuration file is invalid: chimed answers every call with this (the message
  /// names the file, line and key) and does nothing else until restarted with a fixed file.
  public static let configInvalid = Reason("CONFIG_INVALID", .failedPrecondition)
}
