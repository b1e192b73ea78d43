/// A stable, machine-readable reason for a status, with the status code it goes with: the one
/// catalogue of every reason Chime sends, throws or records.
///
/// Build errors from it (`ChimeError(.shuttingDown, "chimed is shutting down")`), so a reason's
/// spelling and its code are written once. `ChimeError.reason` stays a `String`, because a peer
/// (a newer daemon, another client) may send reasons this build does not know; compare with
/// `error.has(.unknownEnumValue)`. The README's "Reasons" table lists the same reasons, and a
/// test keeps the two in step.
public struct Reason: Hashable, Sendable, CustomStringConvertible {
  /// The text on the wire, e.g. `SHUTTING_DOWN`.
  public let name: String
  /// The status code the reason is sent with.
  public let code: StatusCode

  init(_ name: String, _ code: StatusCode) {
    self.name = name
    self.code = code
  }

  public var description: String { name }

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

  // MARK: Requests and content

  /// A request identifier that is empty, too long or holds control characters.
  public static let invalidIdentifier = Reason("INVALID_IDENTIFIER", .invalidArgument)
  /// A text field over its byte limit.
  public static let fieldTooLong = Reason("FIELD_TOO_LONG", .invalidArgument)
  /// A negative badge.
  public static let invalidBadge = Reason("INVALID_BADGE", .invalidArgument)
  /// A relevance score outside 0...1.
  public static let invalidRelevanceScore = Reason("INVALID_RELEVANCE_SCORE", .invalidArgument)
  /// More attachments than a request may carry.
  public static let tooManyAttachments = Reason("TOO_MANY_ATTACHMENTS", .invalidArgument)
  /// Two attachments of a request share an identifier.
  public static let duplicateAttachmentIdentifier = Reason("DUPLICATE_ATTACHMENT_IDENTIFIER", .invalidArgument)
  /// Content with nothing to show (UNErrorCodeNotificationInvalidNoContent).
  public static let notificationInvalidNoContent = Reason("NOTIFICATION_INVALID_NO_CONTENT", .invalidArgument)
  /// A volume on a sound that is not critical, or one outside 0...1.
  public static let invalidSoundVolume = Reason("INVALID_SOUND_VOLUME", .invalidArgument)
  /// A sound name that is not a plain file name.
  public static let invalidSoundName = Reason("INVALID_SOUND_NAME", .invalidArgument)
  /// User info over its byte limit.
  public static let userInfoTooLarge = Reason("USER_INFO_TOO_LARGE", .invalidArgument)
  /// User info that is not a JSON object (or nests too deep).
  public static let invalidUserInfo = Reason("INVALID_USER_INFO", .invalidArgument)
  /// A time interval that is not positive, too long, or repeats more often than every 60 s.
  public static let invalidInterval = Reason("INVALID_INTERVAL", .invalidArgument)
  /// A missed-fire policy with a lateness that is not a positive number of seconds.
  public static let invalidMissedFirePolicy = Reason("INVALID_MISSED_FIRE_POLICY", .invalidArgument)
  /// A calendar component out of its range.
  public static let invalidDateComponent = Reason("INVALID_DATE_COMPONENT", .invalidArgument)
  /// A time zone identifier this machine does not know.
  public static let invalidTimeZone = Reason("INVALID_TIME_ZONE", .invalidArgument)
  /// A calendar trigger that names no component or matches no future date
  /// (UNErrorCodeNotificationInvalidNoDate).
  public static let notificationInvalidNoDate = Reason("NOTIFICATION_INVALID_NO_DATE", .invalidArgument)
  /// `--calendar` text that does not parse.
  public static let invalidCalendarSpec = Reason("INVALID_CALENDAR_SPEC", .invalidArgument)
  /// A recurrence rule (RFC 5545 RRULE), start or exclusion that does not parse or that RFC 5545
  /// does not allow; the message names the part (`BYSETPOS=0`, `COUNT` with `UNTIL`).
  public static let invalidRecurrenceRule = Reason("INVALID_RECURRENCE_RULE", .invalidArgument)
  /// `chime` could not read its command line (an unknown option, a value that does not parse);
  /// with --json it is printed as this reason, exit status 64.
  public static let invalidCommandLine = Reason("INVALID_COMMAND_LINE", .invalidArgument)
  /// A trigger preview asked for without a trigger.
  public static let triggerRequired = Reason("TRIGGER_REQUIRED", .invalidArgument)
  /// A trigger preview asked for a count outside 1...1000.
  public static let invalidCount = Reason("INVALID_COUNT", .invalidArgument)

  // MARK: Listings and removal

  /// A page size outside 0...1000.
  public static let invalidPageSize = Reason("INVALID_PAGE_SIZE", .invalidArgument)
  /// A page token that is not one the listing returned.
  public static let invalidPageToken = Reason("INVALID_PAGE_TOKEN", .invalidArgument)
  /// More identifiers in one call than allowed.
  public static let tooManyIdentifiers = Reason("TOO_MANY_IDENTIFIERS", .invalidArgument)

  // MARK: Apps

  /// More group containers than an app may register.
  public static let tooManyGroupContainers = Reason("TOO_MANY_GROUP_CONTAINERS", .invalidArgument)
  /// A registered directory that does not exist, is not a directory or is not the user's.
  public static let invalidAppDirectory = Reason("INVALID_APP_DIRECTORY", .invalidArgument)

  // MARK: Attachments

  /// An attachment path that cannot be used: not absolute, missing, a symbolic link, not a
  /// regular file, unreadable, or inside chimed's data directory.
  public static let attachmentInvalidURL = Reason("ATTACHMENT_INVALID_URL", .invalidArgument)
  /// Bytes of no supported type, or a type hint that is unknown or contradicts them.
  public static let attachmentUnrecognizedType = Reason("ATTACHMENT_UNRECOGNIZED_TYPE", .invalidArgument)
  /// An empty attachment, or one over its class's size limit.
  public static let attachmentInvalidFileSize = Reason("ATTACHMENT_INVALID_FILE_SIZE", .invalidArgument)
  /// An attachment whose container is broken, or that could not be read to its end.
  public static let attachmentCorrupt = Reason("ATTACHMENT_CORRUPT", .invalidArgument)
  /// A valid attachment that could not be put into the store (an I/O error).
  public static let attachmentMoveIntoDataStoreFailed = Reason("ATTACHMENT_MOVE_INTO_DATA_STORE_FAILED", .internal)
  /// A valid attachment that could not be put into the store because its disk is full.
  public static let attachmentStoreFull = Reason("ATTACHMENT_STORE_FULL", .resourceExhausted)
  /// An attachment that could not leave its directory (not writable, or sticky and another
  /// user's file): checked before anything is stored, rather than quietly keeping a copy.
  public static let attachmentNotMovable = Reason("ATTACHMENT_NOT_MOVABLE", .failedPrecondition)
  /// The attachments would take the app over its quota.
  public static let attachmentQuotaExceeded = Reason("ATTACHMENT_QUOTA_EXCEEDED", .resourceExhausted)
  /// The app holds as many pending requests as it may (`--max-pending-per-app`).
  public static let pendingLimit = Reason("PENDING_LIMIT", .resourceExhausted)
  /// A thumbnail clipping rectangle that is not finite or leaves the unit square.
  public static let invalidThumbnailClippingRect = Reason("INVALID_THUMBNAIL_CLIPPING_RECT", .invalidArgument)
  /// A thumbnail time outside the movie or GIF, or given for a still image or audio.
  public static let invalidThumbnailTime = Reason("INVALID_THUMBNAIL_TIME", .invalidArgument)
  /// A media file could not be read (I/O error, or it changed size while being read). Callers
  /// usually turn it into their own reason (`ATTACHMENT_CORRUPT`, `SOUND_CORRUPT`).
  public static let mediaReadFailed = Reason("MEDIA_READ_FAILED", .internal)
  /// A thumbnail box that is not WxH with sides 1…4096.
  public static let invalidThumbnailBox = Reason("INVALID_THUMBNAIL_BOX", .invalidArgument)
  /// A thumbnail was asked of an audio file: only images and movies have one.
  public static let thumbnailNotAvailable = Reason("THUMBNAIL_NOT_AVAILABLE", .failedPrecondition)
  /// The image library or the movie decoder could not render the thumbnail (the file passed
  /// the inspector but its pixels do not decode), or the PNG could not be written.
  public static let thumbnailRenderFailed = Reason("THUMBNAIL_RENDER_FAILED", .internal)

  // MARK: Sounds

  /// No sound file of that name in the app's sound directories. Reported in a sound
  /// resolution (the default sound plays), not sent as a status.
  public static let soundNotFound = Reason("SOUND_NOT_FOUND", .notFound)
  /// A sound file of another container or codec than the playable ones.
  public static let soundUnsupportedFormat = Reason("SOUND_UNSUPPORTED_FORMAT", .invalidArgument)
  /// A sound of 30 seconds or longer. Reported in a sound resolution (the default sound
  /// plays), not sent as a status.
  public static let soundTooLong = Reason("SOUND_TOO_LONG", .invalidArgument)
  /// An empty or broken sound file, or one with no audio.
  public static let soundCorrupt = Reason("SOUND_CORRUPT", .invalidArgument)

  // MARK: Authorization and badge

  /// The app is denied notifications (by the user, or by the daemon's policy for apps the user
  /// has not allowed).
  public static let notificationsNotAllowed = Reason("NOTIFICATIONS_NOT_ALLOWED", .permissionDenied)
  /// `SetBadgeCount` with a negative count.
  public static let badgeInputInvalid = Reason("BADGE_INPUT_INVALID", .invalidArgument)
  /// `SetBadgeCount` from an app whose badge permission is off.
  public static let badgeNotAllowed = Reason("BADGE_NOT_ALLOWED", .permissionDenied)
  /// A settings change the user cannot make (an authorization status other than allowed or denied).
  public static let invalidAppSettings = Reason("INVALID_APP_SETTINGS", .invalidArgument)

  // MARK: The store

  /// The store cannot be opened, or is in use by another process (compaction).
  public static let storeUnavailable = Reason("STORE_UNAVAILABLE", .unavailable)
  /// The store was written by a newer chimed; this one leaves it untouched.
  public static let storeTooNew = Reason("STORE_TOO_NEW", .failedPrecondition)
  /// There is no store at the path given (`chimed --compact-store`).
  public static let storeMissing = Reason("STORE_MISSING", .failedPrecondition)
  /// The store file is not a database or fails SQLite's check; chimed refuses to start and
  /// leaves it untouched (the message says what to do).
  public static let storeDamaged = Reason("STORE_DAMAGED", .dataLoss)
  /// The store could not be read.
  public static let storeReadFailed = Reason("STORE_READ_FAILED", .unavailable)
  /// A change could not be saved.
  public static let storeWriteFailed = Reason("STORE_WRITE_FAILED", .unavailable)
  /// The store is closed (chimed is stopping).
  public static let storeClosed = Reason("STORE_CLOSED", .unavailable)
  /// The disk or database is full.
  public static let storeFull = Reason("STORE_FULL", .resourceExhausted)
  /// A stored record could not be read back.
  public static let storeCorrupt = Reason("STORE_CORRUPT", .internal)

  // MARK: Categories and responses

  /// An app declares more categories than `Limits.categoriesPerAppMax`.
  public static let tooManyCategories = Reason("TOO_MANY_CATEGORIES", .invalidArgument)
  /// Two categories of one app have the same identifier.
  public static let duplicateCategoryIdentifier = Reason("DUPLICATE_CATEGORY_IDENTIFIER", .invalidArgument)
  /// A category has more than `Limits.actionsPerCategoryMax` actions.
  public static let tooManyActions = Reason("TOO_MANY_ACTIONS", .invalidArgument)
  /// Two actions of one category have the same identifier.
  public static let duplicateActionIdentifier = Reason("DUPLICATE_ACTION_IDENTIFIER", .invalidArgument)
  /// An action is named `chime.default` or `chime.dismiss`, which responses use for opening and dismissing.
  public static let reservedActionIdentifier = Reason("RESERVED_ACTION_IDENTIFIER", .invalidArgument)
  /// A response names a notification that is not in the app's delivered list.
  public static let notificationNotDelivered = Reason("NOTIFICATION_NOT_DELIVERED", .notFound)
  /// A remove names a request that is not pending (never added, removed, or delivered already).
  public static let notificationNotPending = Reason("NOTIFICATION_NOT_PENDING", .notFound)
  /// A response names an action that the notification's category did not have when it was delivered.
  public static let unknownAction = Reason("UNKNOWN_ACTION", .invalidArgument)
  /// A response carries text for an action that takes none.
  public static let textNotAccepted = Reason("TEXT_NOT_ACCEPTED", .invalidArgument)
  /// A response to a text-input action carries no text.
  public static let textRequired = Reason("TEXT_REQUIRED", .invalidArgument)
  /// A dismissal was reported for a notification whose category lacks `customDismissAction`.
  public static let dismissNotEnabled = Reason("DISMISS_NOT_ENABLED", .failedPrecondition)
  /// A content extension registered for no category.
  public static let extensionCategoriesRequired = Reason("EXTENSION_CATEGORIES_REQUIRED", .invalidArgument)
  /// An extension identifier is already registered (live) for the app, a category already has a live content extension, or the app already has a live service extension (field `service`).
  public static let extensionAlreadyRegistered = Reason("EXTENSION_ALREADY_REGISTERED", .alreadyExists)
  /// An extension answered a response that does not await its answer (answered, timed out, or another's).
  public static let responseNotAwaited = Reason("RESPONSE_NOT_AWAITED", .notFound)
  /// A content extension registered without an initial content size ratio (an older client).
  public static let contentSizeRatioRequired = Reason("CONTENT_SIZE_RATIO_REQUIRED", .invalidArgument)
  /// A content extension's initial content size ratio is not finite, ≤ 0 or over 10.
  public static let invalidContentSizeRatio = Reason("INVALID_CONTENT_SIZE_RATIO", .invalidArgument)
  /// A media play/pause button without a frame, or with one outside sane bounds.
  public static let invalidMediaButtonFrame = Reason("INVALID_MEDIA_BUTTON_FRAME", .invalidArgument)
  /// A media button tint that is not `#RRGGBB`.
  public static let invalidTintColor = Reason("INVALID_TINT_COLOR", .invalidArgument)
  /// A media press or playback report without a command or state.
  public static let invalidMediaCommand = Reason("INVALID_MEDIA_COMMAND", .invalidArgument)
  /// No content extension is live for the notification's category, or the reporting one is not live or does not handle it.
  public static let extensionNotLive = Reason("EXTENSION_NOT_LIVE", .failedPrecondition)
  /// The live content extension of the notification has no media play/pause button.
  public static let mediaButtonNotAvailable = Reason("MEDIA_BUTTON_NOT_AVAILABLE", .failedPrecondition)

  // MARK: Pushed notifications and service extensions

  /// A push payload that is not a JSON object, whose `aps` is missing or not an object, or with a field of the wrong type.
  public static let invalidPushPayload = Reason("INVALID_PUSH_PAYLOAD", .invalidArgument)
  /// A push payload over the limit (`chimed --push-payload-limit`, 4096 bytes by default).
  public static let pushPayloadTooLarge = Reason("PUSH_PAYLOAD_TOO_LARGE", .invalidArgument)
  /// `aps.interruption-level` is not passive, active, time-sensitive or critical.
  public static let unknownInterruptionLevel = Reason("UNKNOWN_INTERRUPTION_LEVEL", .invalidArgument)
  /// Recorded: a mutable push whose app had no live service extension was delivered as sent.
  public static let serviceExtensionNotRunning = Reason("SERVICE_EXTENSION_NOT_RUNNING", .unavailable)
  /// Recorded: the service extension sent nothing by its deadline and grace period; the original was delivered.
  public static let serviceExtensionTimedOut = Reason("SERVICE_EXTENSION_TIMED_OUT", .deadlineExceeded)
  /// Recorded: the service extension answered with an error; the original was delivered.
  public static let serviceExtensionFailed = Reason("SERVICE_EXTENSION_FAILED", .aborted)
  /// Recorded: the service extension's connection ended before it answered; the original was delivered.
  public static let serviceExtensionDisconnected = Reason("SERVICE_EXTENSION_DISCONNECTED", .unavailable)
  /// A service extension answered a request that does not await its answer (answered, timed out, or another's).
  public static let serviceRequestNotAwaited = Reason("SERVICE_REQUEST_NOT_AWAITED", .notFound)

  // MARK: Do Not Disturb

  /// A Do Not Disturb window that is not START-END in 24-hour time, or that starts where it ends.
  public static let invalidDNDSchedule = Reason("INVALID_DND_SCHEDULE", .invalidArgument)
  /// A Do Not Disturb schedule's weekdays name an unknown day, or none.
  public static let invalidDNDDays = Reason("INVALID_DND_DAYS", .invalidArgument)
  /// Do Not Disturb switched on until an instant that has passed.
  public static let dndUntilInPast = Reason("DND_UNTIL_IN_PAST", .invalidArgument)

  /// Every reason above, in their order.
  public static let all: [Reason] = [
    unimplemented, `internal`, deadlineExceeded, shuttingDown, cancelled, unknownMethod, unknownCall,
    invalidCallID, duplicateCallID, peerNotAllowed, appIDMismatch, appNotRegistered, peerNotIdentified, tooManyConnections, tooManyCalls, tooManySubscribers, invalidAppID,
    malformedFrame, frameTooLarge, malformedPayload, unknownEnumValue, fieldContainsNUL,
    grpcProtocolViolation, compressionUnsupported, headerListTooLarge, serviceUnknown,
    daemonUnavailable, connectionClosed, malformedReply, outOfMemory, invalidArgument, invalidSocketPath, socketPathTooLong,
    loopFailed, startupFailed, listenFailed, socketListenFailed, dataDirUnavailable, dataDirInUse, configInvalid,
    invalidIdentifier, fieldTooLong, invalidBadge, invalidRelevanceScore, tooManyAttachments,
    duplicateAttachmentIdentifier, notificationInvalidNoContent, invalidSoundVolume, invalidSoundName,
    userInfoTooLarge, invalidUserInfo, invalidInterval, invalidMissedFirePolicy, invalidDateComponent,
    invalidTimeZone, notificationInvalidNoDate, invalidCalendarSpec, invalidRecurrenceRule, invalidCommandLine, triggerRequired, invalidCount,
    invalidPageSize, invalidPageToken, tooManyIdentifiers,
    tooManyGroupContainers, invalidAppDirectory,
    attachmentInvalidURL, attachmentUnrecognizedType, attachmentInvalidFileSize, attachmentCorrupt,
    attachmentMoveIntoDataStoreFailed, attachmentStoreFull, attachmentNotMovable, attachmentQuotaExceeded, pendingLimit, invalidThumbnailClippingRect,
    invalidThumbnailTime, mediaReadFailed, invalidThumbnailBox, thumbnailNotAvailable, thumbnailRenderFailed,
    soundNotFound, soundUnsupportedFormat, soundTooLong, soundCorrupt,
    notificationsNotAllowed, badgeInputInvalid, badgeNotAllowed, invalidAppSettings,
    storeUnavailable, storeTooNew, storeMissing, storeDamaged, storeReadFailed, storeWriteFailed, storeClosed, storeFull, storeCorrupt,
    tooManyCategories, duplicateCategoryIdentifier, tooManyActions, duplicateActionIdentifier, reservedActionIdentifier,
    notificationNotDelivered, notificationNotPending, unknownAction, textNotAccepted, textRequired, dismissNotEnabled,
    extensionCategoriesRequired, extensionAlreadyRegistered, responseNotAwaited,
    contentSizeRatioRequired, invalidContentSizeRatio, invalidMediaButtonFrame, invalidTintColor,
    invalidMediaCommand, extensionNotLive, mediaButtonNotAvailable,
    invalidPushPayload, pushPayloadTooLarge, unknownInterruptionLevel, serviceExtensionNotRunning,
    serviceExtensionTimedOut, serviceExtensionFailed, serviceExtensionDisconnected, serviceRequestNotAwaited,
    invalidDNDSchedule, invalidDNDDays, dndUntilInPast,
  ]

  /// The catalogued reason named `name`, or nil for one this build does not know.
  public init?(named name: String) {
    guard let reason = Self.all.first(where: { $0.name == name }) else { return nil }
    self = reason
  }
}
