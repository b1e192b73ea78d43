/// Reasons of authorization, the store, categories and responses, pushes, Do Not Disturb and
/// calendar sources.
extension Reason {
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

  // MARK: Snooze

  /// A snooze duration outside 1 minute ... 1 week (a `Snooze` call, a category's snooze
  /// durations, or a `chime.snooze` response).
  public static let invalidSnoozeDuration = Reason("INVALID_SNOOZE_DURATION", .invalidArgument)
  /// A category offers more snooze durations than `SnoozeDuration.perCategoryMax`, or one twice.
  public static let tooManySnoozeDurations = Reason("TOO_MANY_SNOOZE_DURATIONS", .invalidArgument)
  /// A `chime.snooze` response names a duration the notification's category did not offer when
  /// it was delivered.
  public static let snoozeNotOffered = Reason("SNOOZE_NOT_OFFERED", .invalidArgument)
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

  // MARK: Calendar sources

  /// A calendar name that is empty, too long, or not letters, digits, `-` and `_`.
  public static let invalidCalendarName = Reason("INVALID_CALENDAR_NAME", .invalidArgument)
  /// A calendar's path does not exist, or is neither a directory nor a `.ics` file.
  public static let invalidCalendarPath = Reason("INVALID_CALENDAR_PATH", .invalidArgument)
  /// A calendar with that name is already registered.
  public static let calendarExists = Reason("CALENDAR_EXISTS", .alreadyExists)
  /// No calendar with that name is registered.
  public static let calendarNotFound = Reason("CALENDAR_NOT_FOUND", .notFound)
}
