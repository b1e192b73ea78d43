import ChimeCore
import ChimeWire
import Testing

/// The call table pairs every method that has messages with its codecs, once.
@Suite struct CallTableTests {
  @Test func everyMethodIsDescribedOnceOrListedAsUndescribed() {
    #expect(Set(Calls.methods).count == Calls.methods.count)
    #expect(Set(Calls.methods).isDisjoint(with: Calls.undescribed))
    #expect(Set(Calls.methods).union(Calls.undescribed) == Set(Method.allCases))
    #expect(Calls.undescribed == [.setCategories, .getCategories, .respond, .registerExtension])
  }

  @Test func onlySubscribeStreamsAmongTheDescribedMethods() {
    #expect(Calls.methods.filter(\.isServerStreaming) == [Calls.subscribe.method])
  }

  private func roundTrip<Request: Equatable, Response: Equatable>(
    _ call: CallDescriptor<Request, Response>, _ request: Request, _ response: Response
  ) throws {
    #expect(try call.decodeRequest(call.encodeRequest(request)) == request, "\(call.method)")
    #expect(try call.decodeResponse(call.encodeResponse(response)) == response, "\(call.method)")
  }

  @Test func requestsAndResponsesRoundTripThroughTheirDescriptors() throws {
    let removed = ["a", "b"]
    try roundTrip(Calls.add, Fixtures.fullRequest(), AddResult(pending: Fixtures.fullPending(), replaced: true, delivered: Fixtures.fullDelivered()))
    try roundTrip(Calls.getPending, PageRequest(pageSize: 7, pageToken: "p2"), Page(items: [Fixtures.fullPending()], nextPageToken: "p3"))
    try roundTrip(Calls.getDelivered, PageRequest(pageSize: 7, pageToken: "p2"), Page(items: [Fixtures.fullDelivered()], nextPageToken: "p3"))
    try roundTrip(Calls.removePending, ["a", "b", "missing"], removed)
    try roundTrip(Calls.removeDelivered, ["a", "b", "missing"], removed)
    try roundTrip(Calls.removeAllPending, Empty(), removed)
    try roundTrip(Calls.removeAllDelivered, Empty(), removed)
    try roundTrip(
      Calls.nextTriggerDates,
      WireCodec.NextTriggerDatesRequest(trigger: Fixtures.fullRequest().trigger, after: Instant(unixMillis: 5), count: 3),
      [FireDate(instant: Instant(unixMillis: 1_000), utcOffsetSeconds: 3600, zoneIdentifier: "Europe/Berlin", dstNote: "gap")])
    let layout = AppLayout(appID: "org.example.tea", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")
    try roundTrip(Calls.registerApp, WireCodec.AppRegistration(container: "/c", groupContainers: ["/g1"], bundle: "/b"), layout)
    try roundTrip(Calls.getApp, Empty(), layout)
    try roundTrip(Calls.listApps, Empty(), [layout, layout])
    try roundTrip(Calls.checkSound, "ding.caf",
                  SoundCheck(searched: [SoundSearchStep(path: "/c/Library/Sounds/ding.caf", exists: true)], resolution: Fixtures.fullSoundResolution()))

    #expect(try Calls.subscribe.decodeRequest(Calls.subscribe.encodeRequest(41)) == 41)
    #expect(try Calls.subscribe.decodeRequest(Calls.subscribe.encodeRequest(nil)) == nil)
    #expect(try Calls.subscribe.decodeMessage(Calls.subscribe.encodeMessage(Fixtures.fullEvent())) == Fixtures.fullEvent())
  }

  @Test func emptyRequestsAreNoBytesAndRefuseBytesThatAreNotAMessage() throws {
    for call in [Calls.removeAllPending, Calls.removeAllDelivered] {
      #expect(try call.encodeRequest(Empty()) == [])
      let error = #expect(throws: ChimeError.self) { try call.decodeRequest([0xFF]) }
      #expect(error?.reason == "MALFORMED_PAYLOAD")
    }
    #expect(try Calls.getApp.encodeRequest(Empty()) == [])
    #expect(throws: ChimeError.self) { try Calls.listApps.decodeRequest([0xFF]) }
  }
}
