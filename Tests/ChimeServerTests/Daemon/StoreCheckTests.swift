import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A store too large to check whole before serving is checked right after: damage found then
/// stops the daemon with STORE_DAMAGED, as the check before serving refuses a small one.
@Suite(.testTimeLimit) struct StoreCheckTests {
  /// Fills a store through a daemon, stops it, folds the WAL into the file and scribbles over a
  /// page in the middle (past the schema).
  static func damagedStore() async throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    do {
      let d = try InProcessDaemon(directory: directory)
      let client = try d.client()
      for i in 0..<300 {
        var request = NotificationRequest.tea("r\(i)", in: 3600)
        request.content.body = String(repeating: "x", count: 300)
        _ = try await client.add(request)
      }
      d.stop()
    }
    try scribble(directory.file("data/chime.db"))
    return directory
  }

  static func scribble(_ path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    queue.close()
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let pageSize = 4096
    let page = bytes.count / pageSize / 2
    for i in 0..<pageSize where i % 7 != 0 { bytes[page * pageSize + i] = 0xA5 }
    try bytes.write(to: URL(fileURLWithPath: path))
  }

  @Test func aSmallDamagedStoreIsRefusedBeforeServing() async throws {
    let directory = try await Self.damagedStore()
    #expect {
      _ = try InProcessDaemon(directory: directory)
    } throws: { error in
      (error as? ChimeError)?.reason == "STORE_DAMAGED"
    }
  }

  @Test func aLargeDamagedStoreServesThenStopsWithTheSameReason() async throws {
    let directory = try await Self.damagedStore()
    // As if the store were over the size checked before serving.
    let d = try InProcessDaemon(directory: directory) { $0.limits.storeCheckAtOpenLimitBytes = 0 }
    #expect(pollUntil(within: 30) { d.daemon.isStopped }, "the check after start found the damage and stopped the daemon")
    let why = try #require(d.daemon.stoppedWith)
    #expect(why.reason == "STORE_DAMAGED")
    #expect(why.code == .dataLoss)
    #expect(why.message.contains("mv "), "says what to do: \(why.message)")
  }

  @Test func aLargeHealthyStoreKeepsServingAfterItsCheck() async throws {
    let directory = TemporaryDirectory()
    do {
      let d = try InProcessDaemon(directory: directory)
      _ = try await d.client().add(.tea(in: 3600))
      d.stop()
    }
    let d = try InProcessDaemon(directory: directory) { $0.limits.storeCheckAtOpenLimitBytes = 0 }
    let client = try d.client()
    // Calls before, during and after the check in the background are answered.
    for i in 0..<50 { _ = try await client.add(.tea("more\(i)", in: 3600)) }
    #expect(try await client.allPending().count == 51)
    #expect(!d.daemon.isStopped)
    #expect(d.daemon.stoppedWith == nil)
  }

  /// The check runs on a thread of its own at idle priority; a daemon stopped while it may
  /// still be running stops at once and cleanly (shutdown interrupts the check's read).
  @Test func stoppingWhileTheCheckRunsIsNotHeldUp() async throws {
    let directory = TemporaryDirectory()
    do {
      let d = try InProcessDaemon(directory: directory)
      let client = try d.client()
      for i in 0..<200 { _ = try await client.add(.tea("r\(i)", in: 3600)) }
      d.stop()
    }
    for _ in 0..<5 {
      let started = ContinuousClock.now
      let d = try InProcessDaemon(directory: directory) { $0.limits.storeCheckAtOpenLimitBytes = 0 }
      d.stop()
      #expect(d.daemon.isStopped)
      #expect(d.daemon.stoppedWith == nil, "an interrupted check is not damage")
      #expect(ContinuousClock.now - started < .seconds(10))
    }
  }
}
