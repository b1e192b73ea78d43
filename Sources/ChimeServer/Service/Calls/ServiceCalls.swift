import ChimeCore
import ChimeWire

/// The handler of every NotificationCenter method (`CallHandling`, generated from Protos/):
/// each takes the caller's app from the call and hands ChimeCore values to the service part
/// that answers it. Checks that belong to the call rather than to a service part (a page size,
/// a user-side call from a sandbox) are made here. Loop thread only.
final class ServiceCalls: CallHandling {
  let service: NotificationService
  /// Fixed for the daemon's life: `GetServerInfo` answers it at once, whoever asks.
  let server: ServerInfo
  let clock: any WallClock

  init(service: NotificationService, server: ServerInfo, clock: any WallClock) {
    self.service = service
    self.server = server
    self.clock = clock
  }

  /// The user's own settings (another app's settings, Do Not Disturb) are changed by the
  /// user's programs, not by a sandboxed app: a Flatpak or Snap could otherwise let its own
  /// notifications, and every other app's, through Do Not Disturb.
  static func userSetting(_ call: any ServerCall, _ method: String) throws(ChimeError) {
    if let app = call.confinedApp {
      throw ChimeError(.userSettingFromSandbox, "\(method) changes the user's settings; the sandboxed app \(app) may not call it")
    }
  }

  // MARK: Pending and delivered

  func add(_ call: any ServerCall, _ request: NotificationRequest, reply: @escaping (Result<AddResult, ChimeError>) -> Void) {
    service.intake.add(app: call.app, request: request, reply: reply)
  }

  func getPending(_ call: any ServerCall, _ page: PageRequest,
                  reply: @escaping (Result<Page<PendingRequest>, ChimeError>) -> Void) throws(ChimeError) {
    _ = try page.resolvedSize()
    service.listings.pending(app: call.app, page: page, reply: reply)
  }

  func removePending(_ call: any ServerCall, _ identifiers: [String], reply: @escaping (Result<[String], ChimeError>) -> Void) {
    service.listings.removePending(app: call.app, identifiers: identifiers, reply: reply)
  }

  func removeAllPending(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[String], ChimeError>) -> Void) {
    service.listings.removePending(app: call.app, identifiers: nil, reply: reply)
  }

  func getDelivered(_ call: any ServerCall, _ page: PageRequest,
                    reply: @escaping (Result<Page<DeliveredNotification>, ChimeError>) -> Void) throws(ChimeError) {
    _ = try page.resolvedSize()
    service.listings.delivered(app: call.app, page: page, reply: reply)
  }

  func removeDelivered(_ call: any ServerCall, _ identifiers: [String], reply: @escaping (Result<[String], ChimeError>) -> Void) {
    service.listings.removeDelivered(app: call.app, identifiers: identifiers, reply: reply)
  }

  func removeAllDelivered(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[String], ChimeError>) -> Void) {
    service.listings.removeDelivered(app: call.app, identifiers: nil, reply: reply)
  }

  func snooze(_ call: any ServerCall, _ request: SnoozeRequest, reply: @escaping (Result<PendingRequest, ChimeError>) -> Void) {
    service.snoozes.snooze(app: call.app, request, reply: reply)
  }

  // MARK: Events and previews

  func subscribe(_ call: any ServerCall, _ cursor: UInt64?, send: @escaping (Event) -> Bool) throws(ChimeError) {
    let app = call.app
    let sink = StreamSink(send: send)
    let token = try service.listings.subscribe(app: app, after: cursor, sink: sink)
    call.onCancel = { [service] in
      _ = sink  // the hub holds the sink weakly; the call keeps it alive
      service.listings.unsubscribe(app: app, token: token)
    }
  }

  func nextTriggerDates(_ call: any ServerCall, _ request: WireCodec.NextTriggerDatesRequest,
                        reply: @escaping (Result<[FireDate], ChimeError>) -> Void) throws(ChimeError) {
    guard let trigger = request.trigger else {
      throw ChimeError(.triggerRequired, "give a trigger to preview", field: "trigger")
    }
    let count = request.count == 0 ? 5 : request.count
    reply(.success(try TriggerPlanner.preview(trigger, after: request.after ?? clock.now(), count: count, zone: service.floatingZone)))
  }
}

/// Sends a subscriber's events as stream messages of its call.
private final class StreamSink: EventSink {
  let sendEvent: (Event) -> Bool
  init(send: @escaping (Event) -> Bool) { sendEvent = send }

  func send(_ event: Event) -> Bool {
    sendEvent(event)
  }
}
