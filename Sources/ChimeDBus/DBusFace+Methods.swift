import ChimeCore
import ChimeServer
import ChimeWire

/// Each method of the interface: its arguments become the ChimeCore values of the call-table
/// entry behind it, the router runs it as it runs a socket call, and the answer becomes D-Bus
/// values (`DBusRecords`).
extension DBusFace {
  func run(_ request: DBusRequest, peer: DBusPeer, confined: String?) {
    if request.member == "Register" { return register(request, peer: peer, confined: confined) }
    let r: DBusRequest
    let app: String
    do throws(ChimeError) {
      (r, app) = try Self.callingApp(request, registered: peer.app)
    } catch {
      return answer(request, .failure(error))
    }
    do throws(ChimeError) {
      switch r.member {
      case "Add":
        let notification = try DBusArguments.request(identifier: r.string(0), content: r.value(1), trigger: r.value(2), options: r.value(3))
        call(Routes.add, r, app, confined, notification) { [.vardict(DBusRecords.added($0))] }
      case "GetPending":
        let limit = try DBusArguments.listLimit(r.value(0))
        list(Routes.getPending, r, app, confined, limit: limit, DBusRecords.pending)
      case "GetDelivered":
        let limit = try DBusArguments.listLimit(r.value(0))
        list(Routes.getDelivered, r, app, confined, limit: limit, DBusRecords.delivered)
      case "RemovePending":
        call(Routes.removePending, r, app, confined, try DBusArguments.strings(r.value(0), field: "identifiers")) { [.strings($0)] }
      case "RemoveAllPending":
        call(Routes.removeAllPending, r, app, confined, Empty()) { [.strings($0)] }
      case "RemoveDelivered":
        call(Routes.removeDelivered, r, app, confined, try DBusArguments.strings(r.value(0), field: "identifiers")) { [.strings($0)] }
      case "RemoveAllDelivered":
        call(Routes.removeAllDelivered, r, app, confined, Empty()) { [.strings($0)] }
      case "NextTriggerDates":
        let preview = try DBusArguments.nextTriggerDates(trigger: r.value(0), options: r.value(1))
        call(Routes.nextTriggerDates, r, app, confined, preview) { [.vardicts($0.map(DBusRecords.fireDate))] }
      case "SetCategories":
        call(Routes.setCategories, r, app, confined, try DBusArguments.categories(r.value(0))) { _ in [] }
      case "GetCategories":
        call(Routes.getCategories, r, app, confined, Empty()) { [.vardicts($0.map(DBusRecords.category))] }
      case "RequestAuthorization":
        let options = try DBusArguments.authorization(DBusArguments.strings(r.value(0), field: "options"))
        call(Routes.requestAuthorization, r, app, confined, options) { [.boolean($0.granted), .vardict(DBusRecords.settings($0.settings))] }
      case "GetSettings":
        call(Routes.getSettings, r, app, confined, Empty()) { [.vardict(DBusRecords.settings($0))] }
      case "SetBadgeCount":
        guard case .signed(let count, _) = r.value(0) else { throw ChimeError(.invalidArgument, "count must be i", field: "count") }
        call(Routes.setBadgeCount, r, app, confined, Int(count)) { _ in [] }
      case "Respond":
        let response = try DBusArguments.response(notification: r.string(0), action: r.string(1), options: r.value(2))
        call(Routes.respond, r, app, confined, response) { [.vardict(DBusRecords.responded($0))] }
      case "Snooze":
        guard case .unsigned(let seconds, _) = r.value(1) else { throw ChimeError(.invalidArgument, "seconds must be u", field: "seconds") }
        try BusDictionary(r.value(2), path: "options").finish()
        let request = SnoozeRequest(notificationIdentifier: r.string(0), durationSeconds: Int64(seconds))
        call(Routes.snooze, r, app, confined, request) { [.vardict(DBusRecords.pending($0))] }
      case "Push":
        let submission = try DBusArguments.push(payload: r.string(0), options: r.value(1))
        call(Routes.push, r, app, confined, submission) { [.vardict(DBusRecords.pushed($0))] }
      case "GetDoNotDisturb":
        try BusDictionary(r.value(0), path: "options").finish()
        call(Routes.getDoNotDisturb, r, app, confined, Empty()) { [.vardict(DBusRecords.doNotDisturb($0))] }
      case "SetDoNotDisturb":
        call(Routes.setDoNotDisturb, r, app, confined, try DBusArguments.doNotDisturb(r.value(0))) { [.vardict(DBusRecords.doNotDisturb($0))] }
      case "AddCalendar":
        try BusDictionary(r.value(2), path: "options").finish()
        call(Routes.addCalendar, r, app, confined, .init(name: r.string(0), path: r.string(1))) { [.vardict(DBusRecords.calendar($0))] }
      case "ListCalendars":
        try BusDictionary(r.value(0), path: "options").finish()
        call(Routes.listCalendars, r, app, confined, Empty()) { [.vardicts($0.map(DBusRecords.calendar))] }
      case "RemoveCalendar":
        try BusDictionary(r.value(1), path: "options").finish()
        call(Routes.removeCalendar, r, app, confined, r.string(0)) { [.uint32(UInt32(clamping: $0))] }
      case "SyncCalendars":
        try BusDictionary(r.value(1), path: "options").finish()
        let name = r.string(0)
        call(Routes.syncCalendars, r, app, confined, name.isEmpty ? nil : name) { [.vardicts($0.map(DBusRecords.calendar))] }
      case "ListApps":
        try BusDictionary(r.value(0), path: "options").finish()
        listApps(r, app, confined)
      case "SetAppSettings":
        try BusDictionary(r.value(2), path: "options").finish()
        let change = try DBusArguments.appSettings(app: r.string(0), change: r.value(1))
        call(Routes.setAppSettings, r, app, confined, change) { [.vardict(DBusRecords.settings($0))] }
      default:
        // The vtable routes only its own members here.
        throw ChimeError(.unknownMethod, "unknown method \(r.member.prefix(100))")
      }
    } catch {
      answer(r, .failure(error))
    }
  }

  /// The app a call acts as, and the call without the `app-id` of its options: the app named
  /// per call, else the one the connection registered as (or its sandbox's, `registered`). A
  /// connection that registered may name only that app (APP_ID_MISMATCH), so one app's
  /// connection never reaches another's data; one that neither registered nor names an app is
  /// APP_NOT_REGISTERED. The sandbox rule is the router's, after this.
  static func callingApp(_ request: DBusRequest, registered: String?) throws(ChimeError) -> (DBusRequest, app: String) {
    let (stripped, perCall) = try takingAppID(request)
    if let perCall {
      try AppID.validate(perCall)
      if let registered, registered != perCall {
        throw ChimeError(.appIDMismatch, "this connection registered as \(registered); it may not act as \(perCall)", field: "options.app-id")
      }
    }
    guard let app = perCall ?? registered else {
      throw ChimeError(.appNotRegistered,
                       "call Register(app_id, {}) first on this connection, or give app-id in the call's options: chimed needs to know which app is calling",
                       field: "app_id")
    }
    return (stripped, app)
  }

  /// Where each method that takes an options dictionary has it.
  private static let optionsIndex: [String: Int] = [
    "Add": 3, "GetPending": 0, "GetDelivered": 0, "NextTriggerDates": 1, "Respond": 2, "Push": 1, "Snooze": 2,
    "GetDoNotDisturb": 0, "SetDoNotDisturb": 0, "AddCalendar": 2, "ListCalendars": 0, "RemoveCalendar": 1, "SyncCalendars": 1,
    "ListApps": 0, "SetAppSettings": 2,
  ]

  /// `request` without the `app-id` key of its options, and that key's value: a one-off caller
  /// (gdbus, busctl: a connection per call) names its app per call, as a socket call does in
  /// its header. The sandbox rule still holds (the router's check), and a registered connection
  /// may name only the app it registered as.
  static func takingAppID(_ request: DBusRequest) throws(ChimeError) -> (DBusRequest, String?) {
    guard let index = optionsIndex[request.member], index < request.arguments.count,
          case .array("{sv}", let entries) = request.arguments[index] else { return (request, nil) }
    var app: String?
    var kept: [BusValue] = []
    for entry in entries {
      guard case .entry(.string("app-id", _), .variant(let value)) = entry else {
        kept.append(entry)
        continue
      }
      guard app == nil else { throw ChimeError(.invalidArgument, "the key \"app-id\" is given twice", field: "options.app-id") }
      guard case .string(let named, "s") = value else { throw BusDictionary.wrongType("options.app-id", want: "s", got: value) }
      app = named
    }
    guard app != nil else { return (request, nil) }
    var arguments = request.arguments
    arguments[index] = .array(element: "{sv}", kept)
    return (DBusRequest(message: request.message, sender: request.sender, member: request.member, arguments: arguments), app)
  }

  /// `Register(s app_id, a{sv} options)`: names the connection's app, once. A sandboxed peer is
  /// its sandbox's app already and may register only as that.
  private func register(_ request: DBusRequest, peer: DBusPeer, confined: String?) {
    let app = request.string(0)
    do throws(ChimeError) {
      try DBusArguments.registration(options: request.value(1))
      try AppID.validate(app)
      try PeerSandbox.check(declared: app, confinedTo: confined)
      if let registered = peer.app, registered != app {
        throw ChimeError(.appIDMismatch, "this connection registered as \(registered); it may not act as \(app)", field: "app_id")
      }
      peer.app = app
      listen(peer, app: app)
      answer(request, .success([]))
    } catch {
      answer(request, .failure(error))
    }
  }

  /// Runs one method's route with ChimeCore values and answers the D-Bus call with `encode`.
  func call<Request, Response>(_ route: UnaryRoute<Request, Response>, _ request: DBusRequest, _ app: String,
                                       _ confined: String?, _ value: Request, _ encode: @escaping (Response) -> [BusValue]) {
    guard let router else { return answer(request, .failure(Self.noRouter)) }
    let descriptor = route.descriptor
    let serverCall = DBusCall(descriptor.method, app: app, confinedApp: confined)
    router.call(route, serverCall, header: CallHeader(method: descriptor.method.rawValue, appID: app), request: value) {
      [weak self] result in
      self?.answer(request, result.map(encode))
    }
  }

  /// A listing: pages through the router until `limit` items or the last page.
  private func list<Item>(_ route: UnaryRoute<PageRequest, Page<Item>>, _ request: DBusRequest, _ app: String, _ confined: String?,
                          limit: Int, _ encode: @escaping (Item) -> DBusRecords.Pairs) {
    guard let router else { return answer(request, .failure(Self.noRouter)) }
    let descriptor = route.descriptor
    var items: [Item] = []
    func next(_ token: String) {
      let page = PageRequest(pageSize: min(Limits.pageSizeMax, limit - items.count), pageToken: token)
      let serverCall = DBusCall(descriptor.method, app: app, confinedApp: confined)
      router.call(route, serverCall, header: CallHeader(method: descriptor.method.rawValue, appID: app), request: page) {
        [weak self] result in
        guard let self else { return }
        switch result {
        case .failure(let error):
          answer(request, .failure(error))
        case .success(let page):
          items += page.items
          if page.nextPageToken.isEmpty || items.count >= limit {
            answer(request, .success([.vardicts(items.prefix(limit).map(encode))]))
          } else {
            next(page.nextPageToken)
          }
        }
      }
    }
    next("")
  }
}
