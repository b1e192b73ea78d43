import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Testing

/// Hostile or broken input gets a clear status (or, for framing errors, a final status and a
/// closed connection); the daemon keeps serving everyone else and loses nothing it accepted.
@Suite(.testTimeLimit) struct BadInputTests {
  func expectError(_ reason: String, field: String? = nil, code: StatusCode = .invalidArgument,
                   _ body: () async throws -> Void) async {
    do {
      try await body()
      Issue.record("expected \(reason)")
    } catch let error as ChimeError {
      #expect(error.code == code, "\(error)")
      #expect(error.reason == reason, "\(error)")
      if let field { #expect(error.field == field, "\(error)") }
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  /// Reads frames from a raw socket until one for `callID` arrives (bounded).
  func reply(on socket: RawSocket, callID: UInt64) throws -> Frame? {
    var decoder = FrameDecoder()
    for _ in 0..<50 {
      let (bytes, eof) = socket.read(timeout: 0.2)
      decoder.append(bytes)
      while let frame = try decoder.next() {
        if frame.callID == callID { return frame }
      }
      if eof { return nil }
    }
    return nil
  }

  /// Proves the daemon still serves: a fresh client can add and list.
  func stillServes(_ d: InProcessDaemon) async throws {
    let client = try d.client(app: "org.example.bystander")
    _ = try await client.add(.tea("alive-\(UInt32.random(in: 0...UInt32.max))"))
    #expect(try await client.allPending().count >= 1)
  }

  @Test func invalidRequestsGetReasonsAndFieldPaths() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    await expectError("INVALID_IDENTIFIER", field: "request.identifier") { _ = try await client.add(.tea("")) }
    await expectError("INVALID_IDENTIFIER") { _ = try await client.add(.tea(String(repeating: "x", count: 300))) }
    await expectError("INVALID_INTERVAL") { _ = try await client.add(.tea(in: -5)) }
    await expectError("INVALID_INTERVAL") { _ = try await client.add(.tea(in: .nan)) }
    await expectError("INVALID_INTERVAL") { _ = try await client.add(.tea(in: 30, repeats: true)) }
    var r = NotificationRequest.tea()
    r.content.badge = -1
    await expectError("INVALID_BADGE", field: "request.content.badge") { _ = try await client.add(r) }
    r = .tea()
    r.content.relevanceScore = 1.5
    await expectError("INVALID_RELEVANCE_SCORE") { _ = try await client.add(r) }
    r = .tea()
    r.content.userInfoJSON = "[1]"
    await expectError("INVALID_USER_INFO") { _ = try await client.add(r) }
    r.content.userInfoJSON = "{\"a\":\"" + String(repeating: "b", count: 20_000) + "\"}"
    await expectError("USER_INFO_TOO_LARGE") { _ = try await client.add(r) }
    r = NotificationRequest(identifier: "empty", content: NotificationContent())
    await expectError("NOTIFICATION_INVALID_NO_CONTENT") { _ = try await client.add(r) }
    await expectError("INVALID_PAGE_SIZE") { _ = try await client.pending(PageRequest(pageSize: 5000)) }
    await expectError("INVALID_PAGE_TOKEN") { _ = try await client.pending(PageRequest(pageToken: "garbage!")) }
    // Nothing was scheduled by any of that.
    #expect(try await client.allPending().isEmpty)
  }

  @Test func emptyOrInvalidAppIDIsRefused() async throws {
    let d = try InProcessDaemon()
    let connection = try ChimeConnection(socketPath: d.socketPath)
    for app in ["", "../etc", "a b"] {
      await expectError("INVALID_APP_ID") {
        _ = try await ChimeClient(connection: connection, app: app).allPending()
      }
    }
  }

  /// Every method of the call table decodes its request with its descriptor, the ones that take
  /// `Empty` included: bytes that are not the message are MALFORMED_PAYLOAD, and change nothing.
  @Test func everyDescribedMethodRefusesAPayloadThatIsNotItsRequest() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    _ = try await client.add(.tea("kept"))
    for method in CallTable.methods {
      await expectError("MALFORMED_PAYLOAD") { _ = try await client.call(method, payload: [0xFF]) }
    }
    #expect(try await client.allPending().map(\.request.identifier) == ["kept"])
  }

  @Test func unknownMethodAndUnknownCancelGetStatuses() async throws {
    let d = try InProcessDaemon()
    let socket = try RawSocket(path: d.socketPath)
    socket.write(FrameEncoder.encode(.call(id: 7, CallHeader(method: "/chime.v1.NotificationCenter/Nope", appID: "org.example.app"), payload: [])))
    guard case .reply(_, _, true, let status?)? = try reply(on: socket, callID: 7) else {
      Issue.record("no reply to an unknown method")
      return
    }
    #expect(status.code == .unimplemented)
    #expect(status.reason == "UNKNOWN_METHOD")

    socket.write(FrameEncoder.encode(.cancel(id: 99)))
    guard case .reply(_, _, true, let cancelStatus?)? = try reply(on: socket, callID: 99) else {
      Issue.record("no reply to a cancel of an unknown call")
      return
    }
    #expect(cancelStatus.code == .notFound)
    #expect(cancelStatus.reason == "UNKNOWN_CALL")
    try await stillServes(d)
  }

  @Test func garbagePayloadIsMalformedNotACrash() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    await expectError("MALFORMED_PAYLOAD") { _ = try await client.call(.add, payload: [0xFF, 0xFF, 0xFF, 0x07, 0x01]) }
    try await stillServes(d)
  }

  /// An add whose 900 KB payload repeats one `alert_localization` 225,000 times: protobuf-c
  /// merges each copy into the last, concatenating its repeated field, which would take about
  /// 200 GB (and, before the unpack budget, minutes of the loop's CPU). It is refused by the
  /// budget, and the daemon serves on.
  @Test func aPayloadBuiltToGrowWhenUnpackedIsRefusedAndServingGoesOn() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    // AddRequest.request.content.alert_localization.loc_args = [""], the localization 225,000 times.
    let payload = ProtoWriter.message { add in
      add.field(1) { request in
        request.field(2) { content in
          for _ in 0..<225_000 { content.field(15) { localization in localization.field(6, string: "") } }
        }
      }
    }
    #expect(payload.count > 900_000 && payload.count < 1 << 20)
    // The budget stopped it (not a decode that ran to the end): the status says so.
    var refusal: ChimeError?
    do { _ = try await client.call(.add, payload: payload) } catch { refusal = error }
    #expect(refusal?.reason == "MALFORMED_PAYLOAD")
    #expect(refusal?.message.contains("would take more than") == true, "\(String(describing: refusal))")
    try await stillServes(d)
  }

  @Test(arguments: [
    ("oversized length prefix", lengthPrefixed([], declaredLength: 50 << 20), "FRAME_TOO_LARGE"),
    ("bytes that are not a frame", lengthPrefixed([0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA]), "MALFORMED_FRAME"),
    ("a frame with no kind", lengthPrefixed([0x08, 0x01]), "MALFORMED_FRAME"),
  ])
  func framingErrorsEndTheConnectionWithAStatus(_ name: String, _ bytes: [UInt8], _ reason: String) async throws {
    let d = try InProcessDaemon()
    let socket = try RawSocket(path: d.socketPath)
    socket.write(bytes)
    guard case .reply(0, _, true, let status?)? = try reply(on: socket, callID: 0) else {
      Issue.record("\(name): no final status")
      return
    }
    #expect(status.reason == reason, "\(name)")
    #expect(socket.waitForEOF(timeout: 5), "\(name): connection left open")
    try await stillServes(d)
  }

  @Test func truncatedFrameThenHangUpLosesNothingAccepted() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    _ = try await client.add(.tea("kept"))
    do {
      let socket = try RawSocket(path: d.socketPath)
      let whole = FrameEncoder.encode(.call(id: 1, CallHeader(method: Method.add.rawValue, appID: "org.example.app"), payload: [1, 2, 3, 4, 5, 6, 7, 8]))
      socket.write(Array(whole.prefix(whole.count / 2)))
    }  // closed mid-frame
    try await stillServes(d)
    #expect(try await client.allPending().map(\.request.identifier) == ["kept"])
  }

  @Test func peerThatDisconnectsMidCallDoesNotDisturbOthers() async throws {
    let d = try InProcessDaemon()
    do {
      let socket = try RawSocket(path: d.socketPath)
      let payloadClient = try d.client()
      _ = payloadClient
      // Many adds in flight, then gone before any reply is read.
      for i in 1...50 {
        socket.write(FrameEncoder.encode(.call(id: UInt64(i), CallHeader(method: Method.removeAllPending.rawValue, appID: "org.example.gone"), payload: [])))
      }
    }
    try await stillServes(d)
  }

  @Test func clientThatNeverReadsIsDisconnectedNotBufferedForever() async throws {
    let d = try InProcessDaemon { $0.limits.maxQueuedWriteBytes = 256 << 10 }
    let client = try d.client()
    var big = NotificationRequest.tea("big")
    big.content.body = String(repeating: "x", count: 4000)
    for i in 0..<100 {
      big.identifier = "big\(i)"
      _ = try await client.add(big)
    }
    let socket = try RawSocket(path: d.socketPath)
    // 100 requests × 4 KB per page reply; 400 calls ≈ 160 MB of replies nobody reads.
    var sent = 0
    for i in 1...400 {
      guard socket.write(FrameEncoder.encode(.call(id: UInt64(i), CallHeader(method: Method.getPending.rawValue, appID: "org.example.app"), payload: []))) else { break }
      sent += 1
    }
    // The daemon gives up on this peer ...
    var total = 0
    var closed = false
    for _ in 0..<100 {
      let (bytes, eof) = socket.read(timeout: 0.2)
      total += bytes.count
      if eof { closed = true; break }
    }
    #expect(closed)
    #expect(total < 100 << 20)
    // ... and keeps serving everyone else.
    try await stillServes(d)
    #expect(try await client.allPending().count == 100)
  }
}

/// Past `--max-pending-per-app`, an add of a new identifier is refused with a status the app can
/// act on; nothing is dropped silently (Apple keeps only the soonest 64 without a word).
@Suite(.testTimeLimit) struct PendingLimitServiceTests {
  @Test(arguments: Transport.allCases) func theAddPastTheLimitIsRefusedAndTheRestIsKept(over transport: Transport) async throws {
    let d = try InProcessDaemon { $0.limits.maxPendingPerApp = 2 }
    let client = try d.client(over: transport)
    _ = try await client.add(.tea("a"))
    _ = try await client.add(.tea("b"))
    let error = await caughtError { _ = try await client.add(.tea("c")) }
    #expect(error?.reason == "PENDING_LIMIT")
    #expect(error?.code == .resourceExhausted)
    #expect(try await client.allPending().map(\.request.identifier).sorted() == ["a", "b"])
    #expect(try await client.add(.tea("a", title: "again")).replaced)
    let other = try d.client(app: "org.example.other", over: transport)
    _ = try await other.add(.tea("c"))
    _ = try await client.removePending(["b"])
    _ = try await client.add(.tea("c"))
  }
}
