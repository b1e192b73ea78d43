public import ChimeCore

/// The call table: every NotificationCenter method that has messages, paired once with the
/// codecs of its request and response. `ChimeClient` sends through these descriptors and the
/// daemon's router answers through them: `try await unary(CallTable.add, request)` returns an
/// `AddResult`, and nothing else compiles.
///
/// Every method of `Method` is described here (CallTableTests checks it).
public enum CallTable {
  // MARK: Pending

  /// `Add`: schedules a request; answers what became of it.
  public static let add = CallDescriptor(
    .add,
    encodeRequest: WireCodec.encodeAddRequest, decodeRequest: WireCodec.decodeAddRequest,
    encodeResponse: WireCodec.encodeAddResponse, decodeResponse: WireCodec.decodeAddResponse)

  /// `GetPending`: one page of the app's pending requests.
  public static let getPending = CallDescriptor(
    .getPending,
    encodeRequest: WireCodec.encodePageRequest, decodeRequest: WireCodec.decodePageRequest,
    encodeResponse: WireCodec.encodeGetPendingResponse, decodeResponse: WireCodec.decodeGetPendingResponse)

  /// `RemovePending`: answers the identifiers that existed.
  public static let removePending = CallDescriptor(
    .removePending,
    encodeRequest: WireCodec.encodeIdentifiersRequest, decodeRequest: WireCodec.decodeIdentifiersRequest,
    encodeResponse: WireCodec.encodeRemoveResponse, decodeResponse: WireCodec.decodeRemoveResponse)

  /// `RemoveAllPending`: answers the identifiers that existed.
  public static let removeAllPending = CallDescriptor(
    .removeAllPending,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeRemoveResponse, decodeResponse: WireCodec.decodeRemoveResponse)

  // MARK: Delivered

  /// `GetDelivered`: one page of the app's delivered notifications.
  public static let getDelivered = CallDescriptor(
    .getDelivered,
    encodeRequest: WireCodec.encodePageRequest, decodeRequest: WireCodec.decodePageRequest,
    encodeResponse: WireCodec.encodeGetDeliveredResponse, decodeResponse: WireCodec.decodeGetDeliveredResponse)

  /// `RemoveDelivered`: answers the identifiers that existed.
  public static let removeDelivered = CallDescriptor(
    .removeDelivered,
    encodeRequest: WireCodec.encodeIdentifiersRequest, decodeRequest: WireCodec.decodeIdentifiersRequest,
    encodeResponse: WireCodec.encodeRemoveResponse, decodeResponse: WireCodec.decodeRemoveResponse)

  /// `RemoveAllDelivered`: answers the identifiers that existed.
  public static let removeAllDelivered = CallDescriptor(
    .removeAllDelivered,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeRemoveResponse, decodeResponse: WireCodec.decodeRemoveResponse)

  // MARK: Events and previews

  /// `Subscribe`: the app's events after a cursor (nil: new ones only), as a stream.
  public static let subscribe = ServerStreamingCallDescriptor(
    .subscribe,
    encodeRequest: WireCodec.encodeSubscribeRequest(after:), decodeRequest: WireCodec.decodeSubscribeRequest,
    encodeMessage: WireCodec.encodeEvent, decodeMessage: WireCodec.decodeEvent)

  /// `NextTriggerDates`: upcoming fires of a trigger.
  public static let nextTriggerDates = CallDescriptor(
    .nextTriggerDates,
    encodeRequest: WireCodec.encodeNextTriggerDatesRequest, decodeRequest: WireCodec.decodeNextTriggerDatesRequest,
    encodeResponse: WireCodec.encodeNextTriggerDatesResponse, decodeResponse: WireCodec.decodeNextTriggerDatesResponse)

  // MARK: Categories and responses

  /// `SetCategories`: replaces all of the app's categories.
  public static let setCategories = CallDescriptor(
    .setCategories,
    encodeRequest: WireCodec.encodeSetCategoriesRequest, decodeRequest: WireCodec.decodeSetCategoriesRequest,
    encodeResponse: { (_: Empty) in WireCodec.encodeEmpty() }, decodeResponse: emptyDecoder)

  /// `GetCategories`: the app's categories, in the order they were set (empty when none).
  public static let getCategories = CallDescriptor(
    .getCategories,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeGetCategoriesResponse, decodeResponse: WireCodec.decodeGetCategoriesResponse)

  /// `Respond`: the user's answer to a delivered notification.
  public static let respond = CallDescriptor(
    .respond,
    encodeRequest: WireCodec.encodeRespondRequest, decodeRequest: WireCodec.decodeRespondRequest,
    encodeResponse: WireCodec.encodeRespondResponse, decodeResponse: WireCodec.decodeRespondResponse)

  /// `RegisterExtension`: registers the connection as a content extension of the app for some
  /// categories; streams `registered`, then the notifications delivered in them and the
  /// responses to those.
  public static let registerExtension = ServerStreamingCallDescriptor(
    .registerExtension,
    encodeRequest: WireCodec.encodeRegisterExtensionRequest, decodeRequest: WireCodec.decodeRegisterExtensionRequest,
    encodeMessage: WireCodec.encodeExtensionEvent, decodeMessage: WireCodec.decodeExtensionEvent)

  /// `AnswerResponse`: a content extension's answer to a response it was asked about.
  public static let answerResponse = CallDescriptor(
    .answerResponse,
    encodeRequest: WireCodec.encodeAnswerResponseRequest, decodeRequest: WireCodec.decodeAnswerResponseRequest,
    encodeResponse: { (_: Empty) in WireCodec.encodeEmpty() }, decodeResponse: emptyDecoder)

  /// `PressMediaButton`: the user pressed a delivered notification's media play/pause button;
  /// answers the content extension it was shown to.
  public static let pressMediaButton = CallDescriptor(
    .pressMediaButton,
    encodeRequest: WireCodec.encodePressMediaButtonRequest, decodeRequest: WireCodec.decodePressMediaButtonRequest,
    encodeResponse: WireCodec.encodePressMediaButtonResponse, decodeResponse: WireCodec.decodePressMediaButtonResponse)

  /// `ReportMediaPlayback`: a content extension reports its media started or paused playing.
  public static let reportMediaPlayback = CallDescriptor(
    .reportMediaPlayback,
    encodeRequest: WireCodec.encodeReportMediaPlaybackRequest, decodeRequest: WireCodec.decodeReportMediaPlaybackRequest,
    encodeResponse: { (_: Empty) in WireCodec.encodeEmpty() }, decodeResponse: emptyDecoder)

  // MARK: Pushed notifications and service extensions

  /// `Push`: delivers an APNs-style JSON payload at once (through the app's service extension
  /// when it is mutable); answers the delivered notification.
  public static let push = CallDescriptor(
    .push,
    encodeRequest: WireCodec.encodePushRequest, decodeRequest: WireCodec.decodePushRequest,
    encodeResponse: WireCodec.encodePushResponse, decodeResponse: WireCodec.decodePushResponse)

  /// `AnswerService`: a service extension's replacement content (or failure) for a request.
  public static let answerService = CallDescriptor(
    .answerService,
    encodeRequest: WireCodec.encodeAnswerServiceRequest, decodeRequest: WireCodec.decodeAnswerServiceRequest,
    encodeResponse: { (_: Empty) in WireCodec.encodeEmpty() }, decodeResponse: emptyDecoder)

  // MARK: Apps and sounds

  /// `RegisterApp`: records the app's layout and answers it.
  public static let registerApp = CallDescriptor(
    .registerApp,
    encodeRequest: WireCodec.encodeRegisterAppRequest, decodeRequest: WireCodec.decodeRegisterAppRequest,
    encodeResponse: WireCodec.encodeAppLayout, decodeResponse: WireCodec.decodeAppLayout)

  /// `GetApp`: the app's layout, registered or the defaults.
  public static let getApp = CallDescriptor(
    .getApp,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeAppLayout, decodeResponse: WireCodec.decodeAppLayout)

  /// `ListApps`: every registered app's layout.
  public static let listApps = CallDescriptor(
    .listApps,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeListAppsResponse, decodeResponse: WireCodec.decodeListAppsResponse)

  /// `CheckSound`: where the daemon looks for a sound name, and what would play.
  public static let checkSound = CallDescriptor(
    .checkSound,
    encodeRequest: WireCodec.encodeCheckSoundRequest(name:), decodeRequest: WireCodec.decodeCheckSoundRequest,
    encodeResponse: WireCodec.encodeCheckSoundResponse, decodeResponse: WireCodec.decodeCheckSoundResponse)

  // MARK: Authorization, settings and badge

  /// `RequestAuthorization`: the first request records the policy's decision; later ones answer it.
  public static let requestAuthorization = CallDescriptor(
    .requestAuthorization,
    encodeRequest: { options throws(ChimeError) in WireCodec.encodeAuthorizationRequest(options) },
    decodeRequest: WireCodec.decodeAuthorizationRequest,
    encodeResponse: WireCodec.encodeAuthorizationResponse, decodeResponse: WireCodec.decodeAuthorizationResponse)

  /// `GetSettings`: the app's authorization status, effective settings and badge count.
  public static let getSettings = CallDescriptor(
    .getSettings,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeNotificationSettings, decodeResponse: WireCodec.decodeNotificationSettings)

  /// `SetBadgeCount`: sets the app's badge count (0 clears it).
  public static let setBadgeCount = CallDescriptor(
    .setBadgeCount,
    encodeRequest: { count throws(ChimeError) in WireCodec.encodeSetBadgeCountRequest(count) },
    decodeRequest: WireCodec.decodeSetBadgeCountRequest,
    encodeResponse: { (_: Empty) in WireCodec.encodeEmpty() }, decodeResponse: emptyDecoder)

  /// `SetAppSettings`: the user changes another app's authorization and settings.
  public static let setAppSettings = CallDescriptor(
    .setAppSettings,
    encodeRequest: WireCodec.encodeAppSettingsRequest, decodeRequest: WireCodec.decodeAppSettingsRequest,
    encodeResponse: WireCodec.encodeNotificationSettings, decodeResponse: WireCodec.decodeNotificationSettings)

  // MARK: The server

  /// `GetServerInfo`: the daemon's version, process and store.
  public static let getServerInfo = CallDescriptor(
    .getServerInfo,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeServerInfo, decodeResponse: WireCodec.decodeServerInfo)

  // MARK: Do Not Disturb

  /// `SetDoNotDisturb`: the user changes their Do Not Disturb setting.
  public static let setDoNotDisturb = CallDescriptor(
    .setDoNotDisturb,
    encodeRequest: { change throws(ChimeError) in WireCodec.encodeSetDoNotDisturbRequest(change) },
    decodeRequest: WireCodec.decodeSetDoNotDisturbRequest,
    encodeResponse: WireCodec.encodeDoNotDisturbState, decodeResponse: WireCodec.decodeDoNotDisturbState)

  /// `GetDoNotDisturb`: the setting and whether it is on now.
  public static let getDoNotDisturb = CallDescriptor(
    .getDoNotDisturb,
    encodeRequest: emptyEncoder, decodeRequest: emptyDecoder,
    encodeResponse: WireCodec.encodeDoNotDisturbState, decodeResponse: WireCodec.decodeDoNotDisturbState)

  // MARK: Snooze

  /// `Snooze`: a delivered notification leaves the screen and comes back after the duration;
  /// answers its snoozed entry as `GetPending` lists it.
  public static let snooze = CallDescriptor(
    .snooze,
    encodeRequest: WireCodec.encodeSnoozeRequest, decodeRequest: WireCodec.decodeSnoozeRequest,
    encodeResponse: WireCodec.encodeSnoozeResponse, decodeResponse: WireCodec.decodeSnoozeResponse)

  // MARK: The table as a whole

  /// The methods described above, in their order.
  public static let methods: [Method] = [
    add.method, getPending.method, removePending.method, removeAllPending.method,
    getDelivered.method, removeDelivered.method, removeAllDelivered.method,
    subscribe.method, nextTriggerDates.method,
    setCategories.method, getCategories.method, respond.method, registerExtension.method, answerResponse.method,
    pressMediaButton.method, reportMediaPlayback.method,
    registerApp.method, getApp.method, listApps.method, checkSound.method,
    requestAuthorization.method, getSettings.method, setBadgeCount.method, setAppSettings.method,
    push.method, answerService.method, getServerInfo.method,
    setDoNotDisturb.method, getDoNotDisturb.method, snooze.method,
  ]

  private static let emptyEncoder: @Sendable (Empty) throws(ChimeError) -> [UInt8] = { _ in WireCodec.encodeEmpty() }
  private static let emptyDecoder: @Sendable ([UInt8]) throws(ChimeError) -> Empty = { bytes throws(ChimeError) in
    try WireCodec.decodeEmpty(bytes)
    return Empty()
  }
}
