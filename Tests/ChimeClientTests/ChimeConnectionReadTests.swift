@testable import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeWire
import ChimeTestSupport
import Testing

/// Who reads the replies: a caller alone in flight reads its own (up to a budget), else the
/// process's reply thread. The answers must not depend on which.
// The project's limit, which catches hangs: a 1-minute one was passed by tests that were only
// waiting for a thread, while the store tests' synchronous fsyncs held both of a 2-core
// machine's cooperative threads (about 50 s at the start of a fresh clone's run, seen in gdb).
@Suite(.testTimeLimit)
struct ChimeConnectionReadTests {
  let app = "org.example.tea"

  /// A budget of zero: every reply goes through the reply thread. The default budget: a call
  /// alone in the process reads its own (another test running at the same time may make it
  /// take the thread; both must answer alike).
  static let budgets: [Duration] = [.zero, ConnectionCore.defaultOwnReadBudget]

  private func echoing(_ daemon: FakeDaemon) -> Task<Void, Never> {
    daemon.serve { frame in
      guard case .call(let id, _, let payload) = frame else { return [] }
      return [.reply(id: id, payload: payload.reversed(), endOfStream: true, status: nil)]
    }
  }

  @Test(arguments: budgets)
  func sequentialCallsGetTheirOwnReplies(budget: Duration) async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath, maxFrameBytes: Limits.maxFrameBytesDefault, ownReadBudget: budget)
    let server = echoing(daemon)
    for i in 0..<50 {
      let payload: [UInt8] = [UInt8(i), 1, 2]
      #expect(try await connection.unary(.getPending, app: app, payload: payload) == payload.reversed())
    }
    if budget == .zero { #expect(connection.handedToReplyThread) }
    connection.close()
    await server.value
  }

  /// A call reading its own reply dispatches the replies of calls that went to the thread, and
  /// a stream opened meanwhile gets its messages.
  @Test(arguments: budgets)
  func callsInParallelWithAStream(budget: Duration) async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath, maxFrameBytes: Limits.maxFrameBytesDefault, ownReadBudget: budget)
    let server = daemon.serve { frame in
      guard case .call(let id, let header, let payload) = frame else { return [] }
      if header.method == Method.subscribe.rawValue {
        return [.reply(id: id, payload: [7], endOfStream: false, status: nil), .reply(id: id, payload: [8], endOfStream: true, status: nil)]
      }
      return [.reply(id: id, payload: payload.reversed(), endOfStream: true, status: nil)]
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<40 {
        group.addTask {
          let payload: [UInt8] = [UInt8(i), 9]
          let reply = try await connection.unary(.add, app: app, payload: payload)
          #expect(reply == payload.reversed())
        }
      }
      group.addTask {
        var got: [[UInt8]] = []
        for try await element in connection.serverStream(.subscribe, app: app, payload: []) { got.append(element) }
        #expect(got == [[7], [8]])
      }
      try await group.waitForAll()
    }
    connection.close()
    await server.value
  }

  /// A reply that comes after the caller gave up reading it (budget zero: at once) reaches it
  /// through the thread; the deadline is still enforced on this side.
  @Test(arguments: budgets)
  func deadlineHoldsWhoeverReads(budget: Duration) async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath, maxFrameBytes: Limits.maxFrameBytesDefault, ownReadBudget: budget)
    let deadline = SystemWallClock().now().adding(millis: 50)
    let error = await #expect(throws: ChimeError.self) {
      try await connection.unary(.add, app: app, payload: [1], deadline: deadline)
    }
    #expect(error?.code == .deadlineExceeded)
    var frames = daemon.frames.makeAsyncIterator()
    guard case .call(let id, _, _)? = await frames.next() else {
      Issue.record("expected the call")
      return
    }
    #expect(await frames.next() == .cancel(id: id))
    // The late reply is dropped and the connection still works.
    try daemon.send(.reply(id: id, payload: [9], endOfStream: true, status: nil))
    async let next = connection.unary(.getPending, app: app, payload: [3, 4])
    guard case .call(let id2, _, let payload)? = await frames.next() else {
      Issue.record("expected a second call")
      return
    }
    try daemon.send(.reply(id: id2, payload: payload.reversed(), endOfStream: true, status: nil))
    #expect(try await next == [4, 3])
  }

  @Test(arguments: budgets)
  func hangUpWhileAloneFailsTheCall(budget: Duration) async throws {
    let daemon = try FakeDaemon()
    let connection = try ChimeConnection(socketPath: daemon.socketPath, maxFrameBytes: Limits.maxFrameBytesDefault, ownReadBudget: budget)
    let call = Task { try await connection.unary(.add, app: app, payload: []) }
    var frames = daemon.frames.makeAsyncIterator()
    _ = await frames.next()
    daemon.closeConnection()
    let error = await #expect(throws: ChimeError.self) { try await call.value }
    #expect(error?.reason == "CONNECTION_CLOSED")
    #expect(connection.isClosed)
  }

  /// Connections of one process share the reply thread: each gets its own replies, and one
  /// that hangs up ends only its own calls, while the others go on.
  @Test func connectionsShareTheReplyThread() async throws {
    let daemons = try (0..<6).map { _ in try FakeDaemon() }
    let connections = try daemons.map {
      try ChimeConnection(socketPath: $0.socketPath, maxFrameBytes: Limits.maxFrameBytesDefault, ownReadBudget: .zero)
    }
    let servers = daemons.enumerated().map { index, daemon in
      daemon.serve { frame in
        guard case .call(let id, _, let payload) = frame else { return [] }
        return [.reply(id: id, payload: [UInt8(index)] + payload, endOfStream: true, status: nil)]
      }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, connection) in connections.enumerated() {
        for i in 0..<20 {
          group.addTask {
            let reply = try await connection.unary(.add, app: app, payload: [UInt8(i)])
            #expect(reply == [UInt8(index), UInt8(i)])
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(connections.allSatisfy { $0.handedToReplyThread })
    daemons[0].closeConnection()
    await servers[0].value
    let error = await #expect(throws: ChimeError.self) { try await connections[0].unary(.add, app: app, payload: [1]) }
    #expect(error?.reason == "CONNECTION_CLOSED")
    for (index, connection) in connections.enumerated().dropFirst() {
      #expect(try await connection.unary(.getPending, app: app, payload: [9]) == [UInt8(index), 9])
      connection.close()
      await servers[index].value
    }
  }
}
