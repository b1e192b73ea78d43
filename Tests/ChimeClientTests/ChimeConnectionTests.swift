import ChimeTestSupport
import ChimeClient
import ChimeCore
import ChimeWire
import Testing

// The project's limit, which catches hangs: a 1-minute one was passed by tests that were only
// waiting for a thread, while the store tests' synchronous fsyncs held both of a 2-core
// machine's cooperative threads (about 50 s at the start of a fresh clone's run, seen in gdb).
@Suite(.testTimeLimit)
struct ChimeConnectionTests {
  let app = "org.example.tea"

  // MARK: Unary

  @Test func callCarriesMethodAppDeadlineAndPayload() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let deadline = Instant(unixMillis: 1_800_000_000_000)
    async let reply = connection.unary(.getPending, app: app, payload: [1, 2, 3], deadline: deadline)
    var frames = daemon.frames.makeAsyncIterator()
    let frame = await frames.next()
    guard case .call(let id, let header, let payload)? = frame else {
      Issue.record("expected a call, got \(String(describing: frame))")
      return
    }
    #expect(header == CallHeader(method: Method.getPending.rawValue, appID: app, deadline: deadline))
    #expect(payload == [1, 2, 3])
    try daemon.send(.reply(id: id, payload: [9], endOfStream: true, status: nil))
    #expect(try await reply == [9])
  }

  @Test func outOfOrderRepliesReachTheirCalls() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    async let first = connection.unary(.getPending, app: app, payload: [1])
    async let second = connection.unary(.getDelivered, app: app, payload: [2])
    var frames = daemon.frames.makeAsyncIterator()
    var calls: [(id: UInt64, payload: [UInt8])] = []
    for _ in 0..<2 {
      guard case .call(let id, _, let payload)? = await frames.next() else {
        Issue.record("expected two calls")
        return
      }
      calls.append((id, payload))
    }
    #expect(calls[0].id != calls[1].id)
    // Answer the later call first.
    for call in calls.reversed() {
      try daemon.send(.reply(id: call.id, payload: call.payload + [0xEE], endOfStream: true, status: nil))
    }
    #expect(try await first == [1, 0xEE])
    #expect(try await second == [2, 0xEE])
  }

  @Test func manyConcurrentCallsShareOneConnection() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    // Echo with the bytes reversed, so a crossed reply would show.
    let server = daemon.serve { frame in
      guard case .call(let id, _, let payload) = frame else { return [] }
      return [.reply(id: id, payload: payload.reversed(), endOfStream: true, status: nil)]
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<300 {
        group.addTask {
          let payload = [UInt8(i & 0xFF), UInt8(i >> 8), 7]
          let reply = try await connection.unary(.add, app: app, payload: payload)
          #expect(reply == payload.reversed())
        }
      }
      try await group.waitForAll()
    }
    connection.close()
    await server.value
  }

  @Test func errorStatusIsThrown() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let status = ChimeError(.invalidArgument, reason: "INVALID_BADGE", "badge must be 0 or more", field: "request.content.badge")
    let server = daemon.serve { frame in
      [.reply(id: frame.callID, payload: [], endOfStream: true, status: status)]
    }
    let error = await #expect(throws: ChimeError.self) { try await connection.unary(.add, app: app, payload: []) }
    #expect(error == status)
    connection.close()
    await server.value
  }

  @Test func cancellingAUnaryCallSendsCancel() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let task = Task { try await connection.unary(.add, app: app, payload: []) }
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    task.cancel()
    let error = await #expect(throws: ChimeError.self) { try await task.value }
    #expect(error?.code == .cancelled)
    #expect(await frames.next() == .cancel(id: id))
    // A late answer to the cancelled call is ignored and the connection keeps working.
    try daemon.send(.reply(id: id, payload: [], endOfStream: true, status: ChimeError(.cancelled, reason: "CANCELLED", "cancelled")))
    async let next = connection.unary(.getPending, app: app, payload: [])
    guard case .call(let id2, _, _)? = await frames.next() else {
      Issue.record("expected a second call")
      return
    }
    try daemon.send(.reply(id: id2, payload: [5], endOfStream: true, status: nil))
    #expect(try await next == [5])
  }

  @Test func oversizeCallIsRefusedBeforeSending() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath, maxFrameBytes: 100)
    let error = await #expect(throws: ChimeError.self) {
      try await connection.unary(.add, app: app, payload: Array(repeating: 0, count: 200))
    }
    #expect(error?.code == .resourceExhausted)
    #expect(error?.reason == "FRAME_TOO_LARGE")
    // The first frame the daemon sees is the next, small call.
    async let small = connection.unary(.add, app: app, payload: [1])
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, let payload)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    #expect(payload == [1])
    try daemon.send(.reply(id: id, payload: [], endOfStream: true, status: nil))
    _ = try await small
  }

  // MARK: Streams

  @Test func streamReceivesRepliesThenEnds() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let stream = connection.serverStream(.subscribe, app: app, payload: [4])
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, let header, let payload)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    #expect(header.method == Method.subscribe.rawValue)
    #expect(payload == [4])
    for i: UInt8 in 1...5 {
      try daemon.send(.reply(id: id, payload: [i], endOfStream: false, status: nil))
    }
    try daemon.send(.reply(id: id, payload: [], endOfStream: true, status: nil))
    var got: [[UInt8]] = []
    for try await element in stream { got.append(element) }
    #expect(got == [[1], [2], [3], [4], [5]])
  }

  @Test func lastReplyMayCarryAMessage() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let stream = connection.serverStream(.subscribe, app: app, payload: [])
    let server = daemon.serve { frame in
      guard case .call(let id, _, _) = frame else { return [] }
      return [.reply(id: id, payload: [1], endOfStream: false, status: nil), .reply(id: id, payload: [2], endOfStream: true, status: nil)]
    }
    var got: [[UInt8]] = []
    for try await element in stream { got.append(element) }
    #expect(got == [[1], [2]])
    connection.close()
    await server.value
  }

  @Test func streamEndingWithAStatusThrowsIt() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let status = ChimeError(.permissionDenied, reason: "NOTIFICATIONS_NOT_ALLOWED", "no")
    let stream = connection.serverStream(.subscribe, app: app, payload: [])
    let server = daemon.serve { frame in
      guard case .call(let id, _, _) = frame else { return [] }
      return [.reply(id: id, payload: [1], endOfStream: false, status: nil), .reply(id: id, payload: [], endOfStream: true, status: status)]
    }
    var got: [[UInt8]] = []
    let error = await #expect(throws: ChimeError.self) {
      for try await element in stream { got.append(element) }
    }
    #expect(got == [[1]])
    #expect(error == status)
    connection.close()
    await server.value
  }

  @Test func cancellingTheConsumerSendsCancel() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let stream = connection.serverStream(.subscribe, app: app, payload: [])
    let consumer = Task {
      var count = 0
      for try await _ in stream { count += 1 }
      return count
    }
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    try daemon.send(.reply(id: id, payload: [1], endOfStream: false, status: nil))
    consumer.cancel()
    #expect(await frames.next() == .cancel(id: id))
    _ = try? await consumer.value
  }

  @Test func droppingTheStreamSendsCancel() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    do {
      _ = connection.serverStream(.subscribe, app: app, payload: [])
    }
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    #expect(await frames.next() == .cancel(id: id))
  }

  @Test func streamKeepsItsConnectionAlive() async throws {
    let daemon = try FakeDaemon()
    let stream = try ChimeConnection(socketPath: daemon.socketPath).serverStream(.subscribe, app: app, payload: [])
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected a call")
      return
    }
    try daemon.send(.reply(id: id, payload: [3], endOfStream: true, status: nil))
    var got: [[UInt8]] = []
    for try await element in stream { got.append(element) }
    #expect(got == [[3]])
  }

  // MARK: Connection loss

  @Test func daemonHangingUpFailsEveryCallInFlight() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let first = Task { try await connection.unary(.add, app: app, payload: []) }
    let second = Task { try await connection.unary(.getPending, app: app, payload: []) }
    let stream = connection.serverStream(.subscribe, app: app, payload: [])
    var frames = daemon.frames.makeAsyncIterator()
    for _ in 0..<3 { _ = await frames.next() }
    daemon.closeConnection()

    for call in [first, second] {
      await #expect(throws: ChimeError(.unavailable, reason: "CONNECTION_CLOSED", "connection to chimed closed: the daemon closed the connection")) {
        try await call.value
      }
    }
    let streamError = await #expect(throws: ChimeError.self) { for try await _ in stream {} }
    #expect(streamError?.reason == "CONNECTION_CLOSED")
    #expect(connection.isClosed)
    let later = await #expect(throws: ChimeError.self) { try await connection.unary(.add, app: app, payload: []) }
    #expect(later?.code == .unavailable)
    #expect(later?.reason == "CONNECTION_CLOSED")
  }

  /// The daemon's final status for the whole connection is what calls in flight fail with: it
  /// says why (PERMISSION_DENIED for another user, a frame too large, shutting down).
  @Test func farewellStatusIsTheCallsError() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let call = Task { try await connection.unary(.add, app: app, payload: []) }
    var frames = daemon.frames.makeAsyncIterator()
    _ = await frames.next()
    try daemon.send(.reply(id: 0, payload: [], endOfStream: true, status: ChimeError(.resourceExhausted, reason: "FRAME_TOO_LARGE", "frame too large")))
    daemon.closeConnection()
    let error = await #expect(throws: ChimeError.self) { try await call.value }
    #expect(error?.code == .resourceExhausted)
    #expect(error?.reason == "FRAME_TOO_LARGE")
    #expect(error?.message == "frame too large")
  }

  @Test func badFrameFromTheDaemonClosesTheConnection() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let call = Task { try await connection.unary(.add, app: app, payload: []) }
    var frames = daemon.frames.makeAsyncIterator()
    _ = await frames.next()
    try daemon.sendRaw(ProtoWriter.framed([0xFF, 0xFF]))
    let error = await #expect(throws: ChimeError.self) { try await call.value }
    #expect(error?.code == .unavailable)
    #expect(error?.reason == "CONNECTION_CLOSED")
    #expect(error?.message.contains("MALFORMED_FRAME") == true)
  }

  @Test func closeFailsCallsInFlight() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    let call = Task { try await connection.unary(.add, app: app, payload: []) }
    var frames = daemon.frames.makeAsyncIterator()
    _ = await frames.next()
    connection.close()
    let error = await #expect(throws: ChimeError.self) { try await call.value }
    #expect(error?.reason == "CONNECTION_CLOSED")
    #expect(await frames.next() == nil)  // the daemon sees the hang-up
  }

  // MARK: Raw access

  @Test func sendRawWritesBytesAsTheyAre() async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath)
    try connection.sendRaw(ProtoWriter.framed([0x08, 0x07, 0x1A, 0x00]))
    var frames = daemon.frames.makeAsyncIterator()
    #expect(await frames.next() == .cancel(id: 7))
    try connection.sendRaw(ProtoWriter.framed([0xFF]))
    #expect(await frames.next() == nil)
    #expect(daemon.framingError?.code == .malformedFrame)
  }

  // MARK: Connecting

  @Test func nothingListeningIsDaemonUnavailable() throws {
    let path = "/tmp/chime-wire-missing-\(UInt64.random(in: 0...UInt64.max))/chimed.sock"
    let error = #expect(throws: ChimeError.self) { try ChimeConnection(socketPath: path) }
    #expect(error?.code == .unavailable)
    #expect(error?.reason == "DAEMON_UNAVAILABLE")
    #expect(error?.message.contains(path) == true)
    #expect(error?.message.contains("No such file or directory") == true)
    #expect(error?.message.contains("chimed") == true)
  }

  @Test func socketPathOverTheLimitIsRefused() throws {
    let path = "/tmp/" + String(repeating: "p", count: 103)  // 108 bytes
    let error = #expect(throws: ChimeError.self) { try ChimeConnection(socketPath: path) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.reason == "SOCKET_PATH_TOO_LONG")
    #expect(error?.message.contains("107") == true)
    let empty = #expect(throws: ChimeError.self) { try ChimeConnection(socketPath: "") }
    #expect(empty?.reason == "INVALID_SOCKET_PATH")
  }
}
