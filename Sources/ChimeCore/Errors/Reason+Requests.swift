/// Reasons of requests and their content, listings, apps, attachments and sounds.
extension Reason {
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
  /// A ring shorter than 5 seconds or longer than 30 minutes, or on a notification whose sound
  /// is none.
  public static let invalidRing = Reason("INVALID_RING", .invalidArgument)
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
}
