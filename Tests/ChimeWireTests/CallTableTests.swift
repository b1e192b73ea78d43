import ChimeTestSupport
import ChimeCore
import ChimeWire
import Testing

/// The call table pairs every method that has messages with its codecs, once.
@Suite struct CallTableTests {
  @Test func everyMethodIsDescribedOnce() {
    #expect(Set(CallTable.methods).count == CallTable.methods.count)
    #expect(Set(CallTable.methods) == Set(Method.allCases))
  }

  @Test func onlySubscribeAndRegisterExtensionStreamAmongTheDescribedMethods() {
    #expect(CallTable.methods.filter(\.isServerStreaming) == [CallTable.subscribe.method, CallTable.registerExtension.method])
  }

  private func roundTrip<Request: Equatable, Response: Equatable>(
    _ call: CallDescriptor<Request, Response>, _ request: Request, _ response: Response
  ) throws {
    #expect(try call.decodeRequest(call.encodeRequest(request)) == request, "\(call.method)")
    #expect(try call.decodeResponse(call.encodeResponse(response)) == response, "\(call.method)")
  }

  @Test func requestsAndResponsesRoundTripThroughTheirDescriptors() throws {
    let removed = ["a", "b"]
    try roundTrip(CallTable.add, FullValues.fullRequest(), AddResult(pending: FullValues.fullPending(), replaced: true, delivered: FullValues.fullDelivered()))
    try roundTrip(CallTable.getPending, PageRequest(pageSize: 7, pageToken: "p2"), Page(items: [FullValues.fullPending()], nextPageToken: "p3"))
    try roundTrip(CallTable.getDelivered, PageRequest(pageSize: 7, pageToken: "p2"), Page(items: [FullValues.fullDelivered()], nextPageToken: "p3"))
    try roundTrip(CallTable.removePending, ["a", "b", "missing"], removed)
    try roundTrip(CallTable.removeDelivered, ["a", "b", "missing"], removed)
    try roundTrip(CallTable.removeAllPending, Empty(), removed)
    try roundTrip(CallTable.removeAllDelivered, Empty(), removed)
    try roundTrip(
      CallTable.nextTriggerDates,
      WireCodec.NextTriggerDatesRequest(trigger: FullValues.fullRequest().trigger, after: Instant(unixMillis: 5), count: 3),
      [FireDate(instant: Instant(unixMillis: 1_000), utcOffsetSeconds: 3600, zoneIdentifier: "Europe/Berlin", dstNote: "gap")])
    let layout = AppLayout(appID: "org.example.tea", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")
    try roundTrip(CallTable.registerApp, WireCodec.AppRegistration(container: "/c", groupContainers: ["/g1"], bundle: "/b"), layout)
    try roundTrip(CallTable.getApp, Empty(), layout)
    try roundTrip(CallTable.listApps, Empty(), [layout, layout])
    try roundTrip(CallTable.getServerInfo, Empty(),
                  ServerInfo(version: "0.4.0 (git 0123456789ab-dirty)", processID: 4242, startedAt: Instant(unixMillis: 1_700_000_000_123),
                             dataDirectory: "/home/u/.local/state/chime", socketPath: "/run/user/1000/chime/chimed.sock"))
    try roundTrip(CallTable.checkSound, "ding.caf",
                  SoundCheck(searched: [SoundSearchStep(path: "/c/Library/Sounds/ding.caf", exists: true)], resolution: FullValues.fullSoundResolution()))
    try roundTrip(CallTable.setCategories, [FullValues.fullCategory(), FullValues.minimalCategory], Empty())
    try roundTrip(CallTable.getCategories, Empty(), [FullValues.fullCategory(), FullValues.minimalCategory])
    try roundTrip(CallTable.getCategories, Empty(), [])
    try roundTrip(CallTable.respond, FullValues.fullResponse(), RespondResult(routedTo: ["ext.a"], removed: true))
    try roundTrip(CallTable.respond, NotificationResponse(notificationIdentifier: "n"), RespondResult(removed: false))
    let registration = ExtensionRegistration(extensionIdentifier: "org.example.ext", categoryIdentifiers: ["a", "b"])
    #expect(try CallTable.registerExtension.decodeRequest(CallTable.registerExtension.encodeRequest(registration)) == registration)
    let full = ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: ["a"], attributes: ExtensionAttributes(
      initialContentSizeRatio: 0.5, defaultContentHidden: true, overridesDefaultTitle: true, userInteractionEnabled: true,
      mediaButton: MediaPlayPauseButton(type: .overlay, frame: MediaButtonFrame(x: 1, y: 2, width: 44, height: 45), tintColor: "#FF8800")))
    #expect(try CallTable.registerExtension.decodeRequest(CallTable.registerExtension.encodeRequest(full)) == full)
    for type in MediaPlayPauseButtonType.allCases {
      var r = full
      r.attributes.mediaButton.type = type
      r.attributes.mediaButton.frame = nil
      #expect(try CallTable.registerExtension.decodeRequest(CallTable.registerExtension.encodeRequest(r)) == r)
    }
    for answer: ExtensionAnswer in [.doNotDismiss, .dismiss, .dismissAndForward] {
      try roundTrip(CallTable.answerResponse, WireCodec.ExtensionAnswerRequest(extensionIdentifier: "e", responseID: 7, answer: answer), Empty())
    }
    try roundTrip(CallTable.snooze, SnoozeRequest(notificationIdentifier: "tea-ready", durationSeconds: 600), FullValues.fullPending())
    for command in MediaCommand.allCases {
      try roundTrip(CallTable.pressMediaButton, MediaPress(notificationIdentifier: "song", command: command), "player")
    }
    for playback in MediaPlayback.allCases {
      try roundTrip(CallTable.reportMediaPlayback, MediaPlaybackReport(extensionIdentifier: "p", notificationIdentifier: "song", playback: playback), Empty())
    }
    for event in [ExtensionEvent(media: MediaPress(notificationIdentifier: "song", command: .pause)),
                  ExtensionEvent(response: FullValues.fullResponse(), responseID: 9), ExtensionEvent(registered: true), ExtensionEvent(delivered: FullValues.fullDelivered()), ExtensionEvent(response: FullValues.fullResponse())] {
      #expect(try CallTable.registerExtension.decodeMessage(CallTable.registerExtension.encodeMessage(event)) == event)
    }

    #expect(try CallTable.subscribe.decodeRequest(CallTable.subscribe.encodeRequest(41)) == 41)
    #expect(try CallTable.subscribe.decodeRequest(CallTable.subscribe.encodeRequest(nil)) == nil)
    #expect(try CallTable.subscribe.decodeMessage(CallTable.subscribe.encodeMessage(FullValues.fullEvent())) == FullValues.fullEvent())
  }

  @Test func emptyRequestsAreNoBytesAndRefuseBytesThatAreNotAMessage() throws {
    for call in [CallTable.removeAllPending, CallTable.removeAllDelivered] {
      #expect(try call.encodeRequest(Empty()) == [])
      let error = #expect(throws: ChimeError.self) { try call.decodeRequest([0xFF]) }
      #expect(error?.reason == "MALFORMED_PAYLOAD")
    }
    #expect(try CallTable.getApp.encodeRequest(Empty()) == [])
    #expect(throws: ChimeError.self) { try CallTable.listApps.decodeRequest([0xFF]) }
  }
}
