import ChimeTestSupport
import ChimeClient
import ChimeCore
import ChimeWire
import Testing

// The project's limit, which catches hangs: a 1-minute one was passed by tests that were only
// waiting for a thread, while the store tests' synchronous fsyncs held both of a 2-core
// machine's cooperative threads (about 50 s at the start of a fresh clone's run, seen in gdb).
@Suite(.testTimeLimit)
struct ChimeClientTests {
  let app = "org.example.tea"

  private func client(_ daemon: FakeDaemon) throws -> ChimeClient {
    try ChimeClient.connect(socketPath: daemon.socketPath, app: app)
  }

  @Test func addSendsTheRequestAndDecodesTheResult() async throws {
    let daemon = try FakeDaemon()
    let app = app
    let server = daemon.serve { frame in
      guard case .call(let id, let header, let payload) = frame else { return [] }
      guard header.method == CallTable.add.method.rawValue, header.appID == app, let request = try? CallTable.add.decodeRequest(payload) else {
        return [.reply(id: id, payload: [], endOfStream: true, status: .internal("unexpected call"))]
      }
      let pending = PendingRequest(request: request, nextFire: Instant(unixMillis: 2000), added: Instant(unixMillis: 1000))
      return [.reply(id: id, payload: CallTable.add.encodeResponse(AddResult(pending: pending, replaced: true)), endOfStream: true, status: nil)]
    }
    let client = try client(daemon)
    let result = try await client.add(FullValues.fullRequest())
    #expect(result.pending.request == FullValues.fullRequest())
    #expect(result.replaced)
    #expect(result.delivered == nil)
    client.connection.close()
    await server.value
  }

  @Test func statusFromTheDaemonIsThrown() async throws {
    let daemon = try FakeDaemon()
    let status = ChimeError(.notificationInvalidNoContent, "content has nothing to show", field: "request.content")
    let server = daemon.serve { [.reply(id: $0.callID, payload: [], endOfStream: true, status: status)] }
    let client = try client(daemon)
    await #expect(throws: status) { try await client.add(FullValues.minimalRequest) }
    client.connection.close()
    await server.value
  }

  @Test func anAppIdOrPageTokenHoldingANULIsRefusedBeforeSending() async throws {
    let daemon = try FakeDaemon()
    let reached = ChimeError.internal("the call reached the daemon")
    let server = daemon.serve { [.reply(id: $0.callID, payload: [], endOfStream: true, status: reached)] }
    // The client refuses such an app id when it connects; a bare connection, when it sends.
    let refused = #expect(throws: ChimeError.self) { try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.tea\0.other") }
    #expect(refused?.reason == "INVALID_APP_ID")
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let appError = await #expect(throws: ChimeError.self) {
      try await connection.unary(.getPending, app: "org.example.tea\0.other", payload: [])
    }
    #expect(appError?.reason == "FIELD_CONTAINS_NUL" && appError?.field == "app_id", "\(String(describing: appError))")

    // (The fake daemon takes one connection: the client goes on over the same one.)
    let client = ChimeClient(connection: connection, app: app)
    let tokenError = await #expect(throws: ChimeError.self) { try await client.delivered(PageRequest(pageSize: 10, pageToken: "p2\0x")) }
    #expect(tokenError?.reason == "FIELD_CONTAINS_NUL" && tokenError?.code == .invalidArgument)
    // The connection is still good for calls that can be sent.
    let other = await #expect(throws: ChimeError.self) { try await client.pending() }
    #expect(other == reached)
    client.connection.close()
    await server.value
  }

  @Test func malformedReplyPayloadIsMalformedPayload() async throws {
    let daemon = try FakeDaemon()
    let server = daemon.serve { [.reply(id: $0.callID, payload: [0xFF, 0xFF], endOfStream: true, status: nil)] }
    let client = try client(daemon)
    let error = await #expect(throws: ChimeError.self) { try await client.pending() }
    #expect(error?.reason == "MALFORMED_PAYLOAD")
    client.connection.close()
    await server.value
  }

  @Test func allPendingAndAllDeliveredFollowPageTokens() async throws {
    let daemon = try FakeDaemon()
    let next = ["": "p2", "p2": "p3", "p3": ""]
    let server = daemon.serve { frame in
      guard case .call(let id, let header, let payload) = frame, let page = try? CallTable.getPending.decodeRequest(payload) else { return [] }
      let token = next[page.pageToken] ?? ""
      let name = page.pageToken.isEmpty ? "p1" : page.pageToken
      let reply: [UInt8] =
        if header.method == CallTable.getPending.method.rawValue {
          CallTable.getPending.encodeResponse(Page(items: [FullValues.fullPending(identifier: name + "a"), FullValues.fullPending(identifier: name + "b")], nextPageToken: token))
        } else {
          CallTable.getDelivered.encodeResponse(Page(items: [FullValues.fullDelivered(identifier: name)], nextPageToken: token))
        }
      return [.reply(id: id, payload: reply, endOfStream: true, status: nil)]
    }
    let client = try client(daemon)
    #expect(try await client.allPending().map(\.request.identifier) == ["p1a", "p1b", "p2a", "p2b", "p3a", "p3b"])
    #expect(try await client.allDelivered().map(\.request.identifier) == ["p1", "p2", "p3"])
    let first = try await client.pending(PageRequest(pageSize: 2))
    #expect(first.nextPageToken == "p2")
    client.connection.close()
    await server.value
  }

  @Test func singlePageListing() async throws {
    let daemon = try FakeDaemon()
    let server = daemon.serve { frame in
      guard case .call(let id, let header, _) = frame else { return [] }
      let reply: [UInt8] =
        header.method == CallTable.getPending.method.rawValue
          ? CallTable.getPending.encodeResponse(Page(items: [FullValues.minimalPending]))
          : CallTable.getDelivered.encodeResponse(Page(items: []))
      return [.reply(id: id, payload: reply, endOfStream: true, status: nil)]
    }
    let client = try client(daemon)
    #expect(try await client.allPending() == [FullValues.minimalPending])
    #expect(try await client.allDelivered() == [])
    client.connection.close()
    await server.value
  }

  @Test func repeatedPageTokenStopsPaging() async throws {
    let daemon = try FakeDaemon()
    let server = daemon.serve { [.reply(id: $0.callID, payload: CallTable.getPending.encodeResponse(Page(items: [], nextPageToken: "same")), endOfStream: true, status: nil)] }
    let client = try client(daemon)
    let error = await #expect(throws: ChimeError.self) { try await client.allPending() }
    #expect(error?.code == .internal)
    client.connection.close()
    await server.value
  }

  @Test func invalidPageSizeIsRefusedBeforeSending() async throws {
    let daemon = try FakeDaemon()
    let client = try client(daemon)
    for size in [-1, 1001] {
      let error = await #expect(throws: ChimeError.self) { try await client.pending(PageRequest(pageSize: size)) }
      #expect(error?.reason == "INVALID_PAGE_SIZE")
      await #expect(throws: ChimeError.self) { try await client.delivered(PageRequest(pageSize: size)) }
    }
  }

  @Test func removalsSendIdentifiersOrEmpty() async throws {
    let daemon = try FakeDaemon()
    let server = daemon.serve { frame in
      guard case .call(let id, let header, let payload) = frame else { return [] }
      let removed: [String]
      switch header.method {
      case CallTable.removePending.method.rawValue, CallTable.removeDelivered.method.rawValue:
        removed = ((try? CallTable.removePending.decodeRequest(payload)) ?? []).filter { $0 != "missing" }
      case CallTable.removeAllPending.method.rawValue, CallTable.removeAllDelivered.method.rawValue:
        removed = payload.isEmpty ? ["everything"] : []
      default:
        removed = []
      }
      return [.reply(id: id, payload: CallTable.removePending.encodeResponse(removed), endOfStream: true, status: nil)]
    }
    let client = try client(daemon)
    #expect(try await client.removePending(["a", "missing", "b"]) == ["a", "b"])
    #expect(try await client.removeDelivered(["missing", "c"]) == ["c"])
    #expect(try await client.removeAllPending() == ["everything"])
    #expect(try await client.removeAllDelivered() == ["everything"])
    client.connection.close()
    await server.value
  }

  @Test func subscribeDecodesEventsSkipsUnknownKindsAndCancels() async throws {
    let daemon = try FakeDaemon()
    let client = try client(daemon)
    let events = client.subscribe(after: 41)
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, let header, let payload)? = await frames.next() else {
      Issue.record("expected the subscribe call")
      return
    }
    #expect(header.method == CallTable.subscribe.method.rawValue)
    #expect(try CallTable.subscribe.decodeRequest(payload) == 41)
    let live = Event(at: Instant(unixMillis: 5), kind: .subscribed)
    try daemon.send(.reply(id: id, payload: CallTable.subscribe.encodeMessage(FullValues.fullEvent()), endOfStream: false, status: nil))
    try daemon.send(.reply(id: id, payload: ProtoWriter.message { $0.field(1, varint: 43); $0.field(3, int32: 250) }, endOfStream: false, status: nil))
    try daemon.send(.reply(id: id, payload: CallTable.subscribe.encodeMessage(live), endOfStream: false, status: nil))
    var iterator = events.makeAsyncIterator()
    #expect(try await iterator.next() == FullValues.fullEvent())
    #expect(try await iterator.next() == live)
    _ = consume iterator
    _ = consume events
    #expect(await frames.next() == .cancel(id: id))
  }

  @Test func undecodableEventEndsTheStreamAndCancelsTheCall() async throws {
    let daemon = try FakeDaemon()
    let client = try client(daemon)
    let events = client.subscribe()
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected the subscribe call")
      return
    }
    try daemon.send(.reply(id: id, payload: [0xFF], endOfStream: false, status: nil))
    let error = await #expect(throws: ChimeError.self) { for try await _ in events {} }
    #expect(error?.reason == "MALFORMED_PAYLOAD")
    #expect(await frames.next() == .cancel(id: id))
  }

  @Test func connectChecksTheAppID() {
    let error = #expect(throws: ChimeError.self) { try ChimeClient.connect(socketPath: "/nonexistent/chimed.sock", app: "") }
    #expect(error?.reason == "INVALID_APP_ID")
  }

  @Test func connectToNothingIsDaemonUnavailable() {
    let error = #expect(throws: ChimeError.self) { try ChimeClient.connect(socketPath: "/nonexistent/chimed.sock", app: app) }
    #expect(error?.reason == "DAEMON_UNAVAILABLE")
  }
}
