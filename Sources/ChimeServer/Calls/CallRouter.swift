import ChimeCore
import ChimeWire
import Logging

/// Turns calls into service requests: checks the app id and deadline, decodes the payload,
/// runs the method and encodes its answer. The one place where wire messages meet the service.
/// Loop thread only.
final class CallRouter {
  private let service: NotificationService
  private let clock: any WallClock
  private let logger: Logger
  /// Set when the daemon is shutting down: new calls are refused with UNAVAILABLE.
  var draining = false

  init(service: NotificationService, clock: any WallClock, logger: Logger) {
    self.service = service
    self.clock = clock
    self.logger = logger
  }

  func start(_ call: any ServerCall, header: CallHeader, payload: [UInt8]) {
    guard !draining else {
      call.finish(.failure(ChimeError(.shuttingDown, "chimed is shutting down")))
      return
    }
    do throws(ChimeError) {
      try AppID.validate(header.appID)
      if let deadline = header.deadline, deadline <= clock.now() {
        throw ChimeError(.deadlineExceeded, "the call's deadline passed before it started")
      }
      try route(call, payload: payload)
    } catch {
      call.finish(.failure(error))
    }
  }

  private func route(_ call: any ServerCall, payload: [UInt8]) throws(ChimeError) {
    let app = call.app
    switch call.method {
    case .add:
      let request = try WireCodec.decodeAddRequest(payload)
      service.add(app: app, request: request) { result in
        call.finish(result.map(WireCodec.encodeAddResponse))
      }
    case .getPending:
      let page = try WireCodec.decodePageRequest(payload)
      _ = try page.resolvedSize()
      service.pending(app: app, page: page) { result in
        call.finish(result.map(WireCodec.encodeGetPendingResponse))
      }
    case .getDelivered:
      let page = try WireCodec.decodePageRequest(payload)
      _ = try page.resolvedSize()
      service.delivered(app: app, page: page) { result in
        call.finish(result.map(WireCodec.encodeGetDeliveredResponse))
      }
    case .removePending:
      let ids = try WireCodec.decodeIdentifiersRequest(payload)
      service.removePending(app: app, identifiers: ids) { result in
        call.finish(result.map(WireCodec.encodeRemoveResponse))
      }
    case .removeAllPending:
      service.removePending(app: app, identifiers: nil) { result in
        call.finish(result.map(WireCodec.encodeRemoveResponse))
      }
    case .removeDelivered:
      let ids = try WireCodec.decodeIdentifiersRequest(payload)
      service.removeDelivered(app: app, identifiers: ids) { result in
        call.finish(result.map(WireCodec.encodeRemoveResponse))
      }
    case .removeAllDelivered:
      service.removeDelivered(app: app, identifiers: nil) { result in
        call.finish(result.map(WireCodec.encodeRemoveResponse))
      }
    case .subscribe:
      let cursor = try WireCodec.decodeSubscribeRequest(payload)
      let sink = StreamSink(call: call)
      let token = service.subscribe(app: app, after: cursor, sink: sink)
      call.onCancel = { [service] in
        _ = sink  // the hub holds the sink weakly; the call keeps it alive
        service.unsubscribe(app: app, token: token)
      }
    case .nextTriggerDates:
      let (trigger, after, count) = try WireCodec.decodeNextTriggerDatesRequest(payload)
      guard let trigger else {
        throw ChimeError(.triggerRequired, "give a trigger to preview", field: "trigger")
      }
      let dates = try TriggerPlanner.preview(trigger, after: after ?? clock.now(), count: count == 0 ? 5 : count)
      call.finish(.success(WireCodec.encodeNextTriggerDatesResponse(dates)))
    case .setCategories, .getCategories:
      throw .unimplemented("categories")
    case .respond, .registerExtension:
      throw .unimplemented("responses and content extensions")
    case .requestAuthorization, .getSettings, .setBadgeCount:
      throw .unimplemented("authorization and badge")
    case .registerApp:
      let r = try WireCodec.decodeRegisterAppRequest(payload)
      service.registerApp(app: app, container: r.container, groups: r.groupContainers, bundle: r.bundle) { result in
        call.finish(result.map(WireCodec.encodeAppLayout))
      }
    case .getApp:
      try WireCodec.decodeEmpty(payload)
      service.app(app: app) { result in call.finish(result.map(WireCodec.encodeAppLayout)) }
    case .listApps:
      try WireCodec.decodeEmpty(payload)
      service.apps { result in call.finish(result.map(WireCodec.encodeListAppsResponse)) }
    case .checkSound:
      let name = try WireCodec.decodeCheckSoundRequest(payload)
      service.checkSound(app: app, name: name) { result in call.finish(result.map(WireCodec.encodeCheckSoundResponse)) }
    }
  }
}

/// Sends a subscriber's events as stream messages of its call.
private final class StreamSink: EventSink {
  let call: any ServerCall
  init(call: any ServerCall) { self.call = call }

  func send(_ event: Event) -> Bool {
    call.sendMessage(WireCodec.encodeEvent(event))
  }
}
