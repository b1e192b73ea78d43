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

  /// Every reason (the catalogue's groups are in Reason+*.swift), in their order.
  public static let all: [Reason] = [
    unimplemented, `internal`, deadlineExceeded, shuttingDown, cancelled, unknownMethod, unknownCall,
    invalidCallID, duplicateCallID, peerNotAllowed, appIDMismatch, userSettingFromSandbox, appNotRegistered, peerNotIdentified, tooManyConnections, tooManyCalls, tooManySubscribers, invalidAppID,
    reservedAppID,
    malformedFrame, frameTooLarge, malformedPayload, unknownEnumValue, fieldContainsNUL,
    grpcProtocolViolation, compressionUnsupported, headerListTooLarge, serviceUnknown,
    daemonUnavailable, connectionClosed, malformedReply, outOfMemory, invalidArgument, invalidSocketPath, socketPathTooLong,
    loopFailed, startupFailed, listenFailed, socketListenFailed, dataDirUnavailable, dataDirInUse, configInvalid,
    invalidIdentifier, fieldTooLong, invalidBadge, invalidRelevanceScore, tooManyAttachments,
    duplicateAttachmentIdentifier, notificationInvalidNoContent, invalidSoundVolume, invalidSoundName,
    userInfoTooLarge, invalidUserInfo, invalidInterval, invalidMissedFirePolicy, invalidDateComponent,
    invalidTimeZone, notificationInvalidNoDate, invalidCalendarSpec, invalidRecurrenceRule, invalidRing, invalidCommandLine, triggerRequired, invalidCount,
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
    invalidSnoozeDuration, tooManySnoozeDurations, snoozeNotOffered,
    invalidCalendarName, invalidCalendarPath, calendarExists, calendarNotFound,
  ]

  /// The catalogued reason named `name`, or nil for one this build does not know.
  public init?(named name: String) {
    guard let reason = Self.all.first(where: { $0.name == name }) else { return nil }
    self = reason
  }
}
