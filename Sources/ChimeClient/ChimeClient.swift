public import ChimeCore
import ChimeSystem
import ChimeWire

/// The NotificationCenter calls for one app, over a `ChimeConnection`. Every error thrown is a
/// `ChimeError`: the daemon's status for the call, or UNAVAILABLE `CONNECTION_CLOSED`.
public struct ChimeClient: Sendable {
  public let connection: ChimeConnection
  /// The reverse-DNS identifier every call acts for.
  public let app: String

  public init(connection: ChimeConnection, app: String) {
    self.connection = connection
    self.app = app
  }

  /// Connects to the daemon at `socketPath`, or where `SocketPath.resolve` says
  /// (`$CHIME_SOCKET`, then `$XDG_RUNTIME_DIR/chime/chimed.sock`).
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_APP_ID` for an app id that is not reverse-DNS style;
  ///   the errors of `ChimeConnection.init` (UNAVAILABLE `DAEMON_UNAVAILABLE`, ...).
  public static func connect(socketPath: String? = nil, app: String) throws(ChimeError) -> ChimeClient {
    try AppID.validate(app)
    return ChimeClient(connection: try ChimeConnection(socketPath: SocketPath.resolve(socketPath)), app: app)
  }

  /// Any unary call with an encoded payload; returns the encoded reply.
  public func call(_ method: Method, payload: [UInt8], deadline: Instant? = nil) async throws(ChimeError) -> [UInt8] {
    try await connection.unary(method, app: app, payload: payload, deadline: deadline)
  }

  // MARK: Pending

  /// Schedules a request (replacing a pending one with the same identifier); one without a
  /// trigger is delivered at once.
  public func add(_ request: NotificationRequest) async throws(ChimeError) -> AddResult {
    try WireCodec.decodeAddResponse(await call(.add, payload: WireCodec.encodeAddRequest(request)))
  }

  /// One page of the app's pending requests.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` (before sending) for a size outside 0...1000.
  public func pending(_ page: PageRequest = .init()) async throws(ChimeError) -> Page<PendingRequest> {
    _ = try page.resolvedSize()
    return try WireCodec.decodeGetPendingResponse(await call(.getPending, payload: try WireCodec.encodePageRequest(page)))
  }

  /// Every pending request, following page tokens.
  public func allPending() async throws(ChimeError) -> [PendingRequest] {
    try await collectPages { page throws(ChimeError) in try await pending(page) }
  }

  /// Removes pending requests; returns the identifiers that existed.
  public func removePending(_ ids: [String]) async throws(ChimeError) -> [String] {
    try WireCodec.decodeRemoveResponse(await call(.removePending, payload: WireCodec.encodeIdentifiersRequest(ids)))
  }

  public func removeAllPending() async throws(ChimeError) -> [String] {
    try WireCodec.decodeRemoveResponse(await call(.removeAllPending, payload: WireCodec.encodeEmpty()))
  }

  // MARK: Delivered

  /// One page of the app's delivered notifications.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` (before sending) for a size outside 0...1000.
  public func delivered(_ page: PageRequest = .init()) async throws(ChimeError) -> Page<DeliveredNotification> {
    _ = try page.resolvedSize()
    return try WireCodec.decodeGetDeliveredResponse(await call(.getDelivered, payload: try WireCodec.encodePageRequest(page)))
  }

  /// Every delivered notification, following page tokens.
  public func allDelivered() async throws(ChimeError) -> [DeliveredNotification] {
    try await collectPages { page throws(ChimeError) in try await delivered(page) }
  }

  public func removeDelivered(_ ids: [String]) async throws(ChimeError) -> [String] {
    try WireCodec.decodeRemoveResponse(await call(.removeDelivered, payload: WireCodec.encodeIdentifiersRequest(ids)))
  }

  public func removeAllDelivered() async throws(ChimeError) -> [String] {
    try WireCodec.decodeRemoveResponse(await call(.removeAllDelivered, payload: WireCodec.encodeEmpty()))
  }

  // MARK: Previews

  /// Up to `count` upcoming fires of `trigger` after `after` (nil: now); a count of 0 asks for
  /// the daemon's default (5).
  public func nextTriggerDates(_ trigger: Trigger, after: Instant? = nil, count: Int = 0) async throws(ChimeError) -> [FireDate] {
    let payload = try WireCodec.encodeNextTriggerDatesRequest(trigger: trigger, after: after, count: count)
    return try WireCodec.decodeNextTriggerDatesResponse(await call(.nextTriggerDates, payload: payload))
  }

  // MARK: Apps and sounds

  /// Records this app's container, group containers (searched in order) and bundle. Empty
  /// container or bundle means the daemon's default under `$XDG_DATA_HOME/chime/apps/<id>/`.
  public func registerApp(container: String = "", groupContainers: [String] = [], bundle: String = "") async throws(ChimeError) -> AppLayout {
    let payload = try WireCodec.encodeRegisterAppRequest(.init(container: container, groupContainers: groupContainers, bundle: bundle))
    return try WireCodec.decodeAppLayout(await call(.registerApp, payload: payload))
  }

  /// This app's layout: registered, or the defaults (`registered` false).
  public func appLayout() async throws(ChimeError) -> AppLayout {
    try WireCodec.decodeAppLayout(await call(.getApp, payload: WireCodec.encodeEmpty()))
  }

  /// Every registered app's layout.
  public func listApps() async throws(ChimeError) -> [AppLayout] {
    try WireCodec.decodeListAppsResponse(await call(.listApps, payload: WireCodec.encodeEmpty()))
  }

  /// Where the daemon looks for the sound `name` for this app, and what would play.
  public func checkSound(_ name: String) async throws(ChimeError) -> SoundCheck {
    try WireCodec.decodeCheckSoundResponse(await call(.checkSound, payload: WireCodec.encodeCheckSoundRequest(name: name)))
  }

  // MARK: Events

  /// The app's events, after `cursor` when given (else new ones only). The stream runs until the
  /// consuming task is cancelled or the connection drops. Events of a kind this build does not
  /// know (from a newer daemon) are skipped.
  public func subscribe(after cursor: UInt64? = nil) -> AsyncThrowingStream<Event, any Error> {
    connection.serverStream(.subscribe, app: app, payload: WireCodec.encodeSubscribeRequest(after: cursor)) { bytes throws(ChimeError) in
      do throws(ChimeError) {
        return try WireCodec.decodeEvent(bytes)
      } catch where error.reason == "UNKNOWN_ENUM_VALUE" && error.field == "kind" {
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
