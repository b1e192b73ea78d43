public import ChimeCore
import ChimeSystem
public import ChimeWire

/// The NotificationCenter calls for one app, over a `ChimeConnection`. Every error thrown is a
/// `ChimeError`: the daemon's status for the call, or UNAVAILABLE `CONNECTION_CLOSED`.
public struct ChimeClient: Sendable {
  /// The daemon's socket (`ChimeConnection`) or an in-process transport.
  public let connection: any CallTransport
  /// The reverse-DNS identifier every call acts for.
  public let app: String

  /// Seconds each unary call may take, sent to the daemon as the call's deadline and enforced
  /// here (DEADLINE_EXCEEDED); nil: no deadline. Streams have none.
  public var timeout: Double?

  public init(connection: any CallTransport, app: String, timeout: Double? = nil) {
    self.connection = connection
    self.app = app
    self.timeout = timeout
  }

  /// Connects to the daemon at `socketPath`, or where `SocketPath.resolve` says
  /// (`$CHIME_SOCKET`, then `$XDG_RUNTIME_DIR/chime/chimed.sock`).
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_APP_ID` for an app id that is not reverse-DNS style;
  ///   the errors of `ChimeConnection.init` (UNAVAILABLE `DAEMON_UNAVAILABLE`, ...).
  public static func connect(socketPath: String? = nil, app: String, timeout: Double? = nil) throws(ChimeError) -> ChimeClient {
    try AppID.validate(app)
    return ChimeClient(connection: try ChimeConnection(socketPath: SocketPath.resolve(socketPath)), app: app, timeout: timeout)
  }

  /// Any unary call with an encoded payload; returns the encoded reply. Without a `deadline`,
  /// `timeout` from now sets one.
  public func call(_ method: Method, payload: [UInt8], deadline: Instant? = nil) async throws(ChimeError) -> [UInt8] {
    let deadline = deadline ?? timeout.map { SystemWallClock().now().adding(seconds: $0) }
    return try await connection.unary(method, app: app, payload: payload, deadline: deadline)
  }

  // MARK: Pending

  /// Schedules a request (replacing a pending one with the same identifier); one without a
  /// trigger is delivered at once.
  public func add(_ request: NotificationRequest) async throws(ChimeError) -> AddResult {
    try await unary(CallTable.add, request)
  }

  /// One page of the app's pending requests.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` (before sending) for a size outside 0...1000.
  public func pending(_ page: PageRequest = .init()) async throws(ChimeError) -> Page<PendingRequest> {
    _ = try page.resolvedSize()
    return try await unary(CallTable.getPending, page)
  }

  /// Every pending request, following page tokens.
  public func allPending() async throws(ChimeError) -> [PendingRequest] {
    try await collectPages { page throws(ChimeError) in try await pending(page) }
  }

  /// Removes pending requests; returns the identifiers that existed.
  public func removePending(_ ids: [String]) async throws(ChimeError) -> [String] {
    try await unary(CallTable.removePending, ids)
  }

  // MARK: Delivered

  /// One page of the app's delivered notifications.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` (before sending) for a size outside 0...1000.
  public func delivered(_ page: PageRequest = .init()) async throws(ChimeError) -> Page<DeliveredNotification> {
    _ = try page.resolvedSize()
    return try await unary(CallTable.getDelivered, page)
  }

  /// Every delivered notification, following page tokens.
  public func allDelivered() async throws(ChimeError) -> [DeliveredNotification] {
    try await collectPages { page throws(ChimeError) in try await delivered(page) }
  }

  public func removeDelivered(_ ids: [String]) async throws(ChimeError) -> [String] {
    try await unary(CallTable.removeDelivered, ids)
  }

  // MARK: Previews

  /// Up to `count` upcoming fires of `trigger` after `after` (nil: now); a count of 0 asks for
  /// the daemon's default (5).
  public func nextTriggerDates(_ trigger: Trigger, after: Instant? = nil, count: Int = 0) async throws(ChimeError) -> [FireDate] {
    try await unary(CallTable.nextTriggerDates, .init(trigger: trigger, after: after, count: count))
  }

  // MARK: Categories and responses

  /// Replaces all of this app's categories (an empty list removes them). Notifications already
  /// delivered keep the category they were delivered with.
  ///
  /// - Throws: INVALID_ARGUMENT `TOO_MANY_CATEGORIES`, `DUPLICATE_CATEGORY_IDENTIFIER`,
  ///   `INVALID_IDENTIFIER`, `TOO_MANY_ACTIONS`, `DUPLICATE_ACTION_IDENTIFIER`,
  ///   `RESERVED_ACTION_IDENTIFIER`, `TOO_MANY_IDENTIFIERS`, `FIELD_TOO_LONG` with the field path
  ///   (`categories[0].actions[2].identifier`); the transport's errors.
  public func setCategories(_ categories: [NotificationCategory]) async throws(ChimeError) {
    _ = try await unary(CallTable.setCategories, categories)
  }

  /// This app's categories, in the order they were set; empty when none.
  public func categories() async throws(ChimeError) -> [NotificationCategory] {
    try await unary(CallTable.getCategories, Empty())
  }

  /// Reports the user's answer to the delivered notification `notificationIdentifier`: opened
  /// (`NotificationAction.defaultIdentifier`, the default), dismissed
  /// (`NotificationAction.dismissIdentifier`) or one of its category's actions, with `text` for a
  /// text-input action. The app's subscribers get a `response` event; the notification leaves
  /// the delivered list.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`; INVALID_ARGUMENT `UNKNOWN_ACTION`,
  ///   `TEXT_NOT_ACCEPTED`, `TEXT_REQUIRED`; FAILED_PRECONDITION `DISMISS_NOT_ENABLED`.
  @discardableResult
  public func respond(to notificationIdentifier: String, action: String = NotificationAction.defaultIdentifier,
                      text: String = "") async throws(ChimeError) -> RespondResult {
    try await unary(CallTable.respond, NotificationResponse(notificationIdentifier: notificationIdentifier, actionIdentifier: action, userText: text))
  }

  /// The user chose one of the category's snooze buttons (`chime.snooze`) for a delivered
  /// notification: routed like every response (content extensions first), then snoozed for
  /// `seconds` unless an extension handled it.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`; INVALID_ARGUMENT `INVALID_SNOOZE_DURATION`,
  ///   `SNOOZE_NOT_OFFERED`.
  @discardableResult
  public func respondSnooze(to notificationIdentifier: String, seconds: Int64) async throws(ChimeError) -> RespondResult {
    var response = NotificationResponse(notificationIdentifier: notificationIdentifier, actionIdentifier: NotificationAction.snoozeIdentifier)
    response.snoozeSeconds = seconds
    return try await unary(CallTable.respond, response)
  }

  /// Snoozes the app's delivered notification: it leaves the screen and the delivered list and
  /// is delivered again after `seconds` (60 ... 604800) with the same content and attachments
  /// and a snooze count one higher. Answers the snoozed entry as `pending` lists it meanwhile
  /// (`snoozeCount > 0`, `nextFire` its return). A repeating request's next fire is unchanged.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SNOOZE_DURATION`; NOT_FOUND `NOTIFICATION_NOT_DELIVERED`.
  @discardableResult
  public func snooze(_ notificationIdentifier: String, seconds: Int64) async throws(ChimeError) -> PendingRequest {
    try await unary(CallTable.snooze, SnoozeRequest(notificationIdentifier: notificationIdentifier, durationSeconds: seconds))
  }

  /// Registers this connection as the app's content extension `identifier` for `categories`,
  /// presented with `attributes` (an initial content size ratio is required).
  /// The stream starts with a `registered` event, then carries each notification delivered in
  /// those categories and each response to one; the registration ends with the stream.
  /// A refused registration ends the stream with INVALID_ARGUMENT `INVALID_IDENTIFIER`,
  /// `EXTENSION_CATEGORIES_REQUIRED`, `TOO_MANY_IDENTIFIERS`, `CONTENT_SIZE_RATIO_REQUIRED`,
  /// `INVALID_CONTENT_SIZE_RATIO`, `INVALID_MEDIA_BUTTON_FRAME`, `INVALID_TINT_COLOR` or
  /// ALREADY_EXISTS `EXTENSION_ALREADY_REGISTERED`.
  public func registerExtension(_ identifier: String, categories: [String],
                                attributes: ExtensionAttributes) -> AsyncThrowingStream<ExtensionEvent, any Error> {
    serverStream(CallTable.registerExtension,
                 ExtensionRegistration(extensionIdentifier: identifier, categoryIdentifiers: categories, attributes: attributes)) { _ in false }
  }

  /// A content extension's answer to the response it was shown with `responseID`
  /// (`ExtensionEvent.responseID`): keep the notification (`.doNotDismiss`), remove it
  /// (`.dismiss`), or remove it and tell the app (`.dismissAndForward`).
  ///
  /// - Throws: NOT_FOUND `RESPONSE_NOT_AWAITED` when that response no longer waits for this
  ///   extension (answered, past its deadline, or another extension's).
  public func answerResponse(_ responseID: UInt64, extension identifier: String, with answer: ExtensionAnswer) async throws(ChimeError) {
    _ = try await unary(CallTable.answerResponse, .init(extensionIdentifier: identifier, responseID: responseID, answer: answer))
  }

  /// Delivers an APNs-style JSON payload at once (`xcrun simctl push`): `aps.alert`, `badge`,
  /// `sound`, `category`, `thread-id`, `mutable-content`, `interruption-level`,
  /// `relevance-score`; keys outside `aps` are user info. `identifier` (apns-collapse-id)
  /// replaces an earlier delivered notification; empty gets a generated one. A mutable payload
  /// goes to the app's live service extension first, so this may wait up to its deadline and
  /// grace period. The answer's `delivered.push` says which content was delivered and why.
  ///
  /// - Throws: INVALID_ARGUMENT `PUSH_PAYLOAD_TOO_LARGE`, `INVALID_PUSH_PAYLOAD` (the field
  ///   names the path, e.g. `aps.alert.title`), `UNKNOWN_INTERRUPTION_LEVEL`, `Add`'s content
  ///   reasons; PERMISSION_DENIED `NOTIFICATIONS_NOT_ALLOWED`.
  public func push(_ payload: [UInt8], identifier: String = "") async throws(ChimeError) -> PushResult {
    try await unary(CallTable.push, PushSubmission(payload: payload, identifier: identifier))
  }

  /// Registers this connection as the app's service extension `identifier` (one live per app).
  /// The stream starts with a `registered` event, then carries each mutable pushed notification
  /// as `serviceRequest` (answer with `answerService`) and, at a request's deadline,
  /// `serviceTimeWillExpire` with its id. The registration ends with the stream.
  /// A second live service extension of the app is refused with ALREADY_EXISTS
  /// `EXTENSION_ALREADY_REGISTERED` (field `service`).
  public func registerServiceExtension(_ identifier: String) -> AsyncThrowingStream<ExtensionEvent, any Error> {
    serverStream(CallTable.registerExtension,
                 ExtensionRegistration(extensionIdentifier: identifier, categoryIdentifiers: [], isService: true)) { _ in false }
  }

  /// A service extension's answer to request `requestID`: `.content(new)` to deliver instead
  /// (attachments are files it wrote; they are moved into the store as at `Add`), or
  /// `.failed(message)` to have the original delivered.
  ///
  /// - Throws: NOT_FOUND `SERVICE_REQUEST_NOT_AWAITED` when the request no longer waits for it.
  public func answerService(_ requestID: UInt64, extension identifier: String, with answer: ServiceAnswer) async throws(ChimeError) {
    _ = try await unary(CallTable.answerService, ServiceAnswerRequest(extensionIdentifier: identifier, requestID: requestID, answer: answer))
  }

  /// The user pressed the media play/pause button of the delivered notification `identifier`:
  /// the content extension live for its category is shown it (`ExtensionEvent.media`).
  /// Returns that extension's identifier.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`, FAILED_PRECONDITION `EXTENSION_NOT_LIVE`,
  ///   `MEDIA_BUTTON_NOT_AVAILABLE`, INVALID_ARGUMENT `INVALID_IDENTIFIER`.
  @discardableResult
  public func pressMediaButton(_ identifier: String, _ command: MediaCommand) async throws(ChimeError) -> String {
    try await unary(CallTable.pressMediaButton, MediaPress(notificationIdentifier: identifier, command: command))
  }

  /// A content extension reports that the media of the delivered notification `identifier`
  /// started (`.playing`) or paused; kept with it (`DeliveredNotification.mediaPlayback`).
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`, FAILED_PRECONDITION `EXTENSION_NOT_LIVE`
  ///   (this extension is not live, or does not handle the notification's category).
  public func reportMediaPlayback(_ identifier: String, extension extensionIdentifier: String,
                                  _ playback: MediaPlayback) async throws(ChimeError) {
    _ = try await unary(CallTable.reportMediaPlayback, MediaPlaybackReport(extensionIdentifier: extensionIdentifier,
                                                                       notificationIdentifier: identifier, playback: playback))
  }

  // MARK: Apps and sounds

  /// Records this app's container, group containers (searched in order) and bundle. Empty
  /// container or bundle means the daemon's default under `$XDG_DATA_HOME/chime/apps/<id>/`.
  /// `displayName` is shown on the desktop (empty: the app id); `desktopEntry` is its `.desktop`
  /// file id without the suffix.
  public func registerApp(container: String = "", groupContainers: [String] = [], bundle: String = "", displayName: String = "",
                          desktopEntry: String = "") async throws(ChimeError) -> AppLayout {
    try await unary(CallTable.registerApp, .init(container: container, groupContainers: groupContainers, bundle: bundle,
                                             displayName: displayName, desktopEntry: desktopEntry))
  }

  /// What is serving: the daemon's version, process id, start time, data directory and socket.
  public func serverInfo() async throws(ChimeError) -> ServerInfo {
    try await unary(CallTable.getServerInfo, Empty())
  }

  /// This app's layout: registered, or the defaults (`registered` false).
  public func appLayout() async throws(ChimeError) -> AppLayout {
    try await unary(CallTable.getApp, Empty())
  }

  /// Where the daemon looks for the sound `name` for this app, and what would play.
  public func checkSound(_ name: String) async throws(ChimeError) -> SoundCheck {
    try await unary(CallTable.checkSound, name)
  }

  // MARK: Events

  /// The app's events, after `cursor` when given (else new ones only). The stream runs until the
  /// consuming task is cancelled or the connection drops. Events of a kind this build does not
  /// know (from a newer daemon) are skipped.
  public func subscribe(after cursor: UInt64? = nil) -> AsyncThrowingStream<Event, any Error> {
    serverStream(CallTable.subscribe, cursor) { error in error.has(.unknownEnumValue) && error.field == "kind" }
  }

  // MARK: Through the call table

  /// A unary call through its descriptor: the request encoded and the reply decoded with the
  /// codecs the daemon uses for that method.
  func unary<Request, Response>(
    _ descriptor: CallDescriptor<Request, Response>, _ request: Request, deadline: Instant? = nil
  ) async throws(ChimeError) -> Response {
    try descriptor.decodeResponse(await call(descriptor.method, payload: descriptor.encodeRequest(request), deadline: deadline))
  }

  /// A server-streaming call through its descriptor. A message that fails to decode with an
  /// error `skipping` accepts is left out; any other ends the stream with that error, as does a
  /// request that cannot be encoded.
  private func serverStream<Request, Message: Sendable>(
    _ descriptor: ServerStreamingCallDescriptor<Request, Message>, _ request: Request,
    skipping: @escaping @Sendable (ChimeError) -> Bool
  ) -> AsyncThrowingStream<Message, any Error> {
    let payload: [UInt8]
    do throws(ChimeError) {
      payload = try descriptor.encodeRequest(request)
    } catch {
      return AsyncThrowingStream(unfolding: { throw error })
    }
    return connection.serverStream(descriptor.method, app: app, payload: payload) { bytes throws(ChimeError) in
      do throws(ChimeError) {
        return try descriptor.decodeMessage(bytes)
      } catch where skipping(error) {
        return nil
      }
    }
  }

  // MARK: Paging

  private func collectPages<Item>(_ fetch: (PageRequest) async throws(ChimeError) -> Page<Item>) async throws(ChimeError) -> [Item] {
    var items: [Item] = []
    var token = ""
    repeat {
      let page = try await fetch(PageRequest(pageToken: token))
      items += page.items
      guard page.nextPageToken.isEmpty || page.nextPageToken != token else {
        throw .internal("the daemon returned the same page token twice")
      }
      token = page.nextPageToken
    } while !token.isEmpty
    return items
  }
}
