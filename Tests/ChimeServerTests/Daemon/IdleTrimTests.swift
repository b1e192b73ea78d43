import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// After a burst of calls the daemon hands freed heap memory back once it goes quiet.
@Suite(.testTimeLimit) struct IdleTrimTests {
  @Test func memoryIsHandedBackOnceCallsStop() async throws {
    let d = try InProcessDaemon { $0.limits.idleTrimMillis = 20 }
    #expect(d.daemon.stats().heapTrims == 0, "nothing to give back before any call")
    let client = try d.client()
    for i in 0..<20 { _ = try await client.add(.tea("t\(i)", in: 3600)) }
    // Under load a pause between two adds may pass for quiet too: at least one trim.
    #expect(try await waitUntil(within: 10) { d.daemon.stats().heapTrims >= 1 })
    // Calls again, then quiet again: another trim.
    let before = d.daemon.stats().heapTrims
    _ = try await client.allPending()
    #expect(try await waitUntil(within: 10) { d.daemon.stats().heapTrims > before })
  }
}
