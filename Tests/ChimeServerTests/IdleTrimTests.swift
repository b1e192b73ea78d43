import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// After a burst of calls the daemon hands freed heap memory back once it goes quiet.
@Suite struct IdleTrimTests {
  @Test func memoryIsHandedBackOnceCallsStopAndOnlyThen() async throws {
    let d = try InProcessDaemon { $0.idleTrimMillis = 20 }
    #expect(d.daemon.stats().heapTrims == 0, "nothing to give back before any call")
    let client = try d.client()
    for i in 0..<20 { _ = try await client.add(.tea("t\(i)", in: 3600)) }
    #expect(try await waitUntil(within: 10) { d.daemon.stats().heapTrims == 1 })
    // One burst, one trim (stats() is not a call); another burst, another trim.
    _ = try await client.allPending()
    #expect(try await waitUntil(within: 10) { d.daemon.stats().heapTrims == 2 })
  }
}
