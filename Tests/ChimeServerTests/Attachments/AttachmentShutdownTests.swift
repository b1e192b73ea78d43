import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// Stopping chimed while attachment adds are in the file lane: the one staging finishes,
/// commits and is answered; those still waiting are refused and keep their files.
extension AttachmentTests {
  @Test func shutdownAnswersTheStagingAddAndRefusesTheWaitingOnes() async throws {
    let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
    let directory = TemporaryDirectory()
    var d: InProcessDaemon? = try InProcessDaemon(directory: directory, tweak: {
      $0.limits.fileLaneWidth = 1
      $0.hooks.beforeStaging = { _, identifier in
        guard identifier == "staging" else { return }
        entered.signal()
        _ = release.wait(timeout: .now() + 30)  // never parks a pool thread for good
      }
    })
    defer { release.signal() }  // a failed expectation must not leave a pool thread parked
    let daemon = try #require(d)
    let png = MediaCorpus.data("images/png-rgb.png")
    let names = ["staging", "waiting-1", "waiting-2"]
    var sources: [String: String] = [:]
    for name in names { sources[name] = MediaCorpus.write(png, to: directory.file("in/\(name).png")) }
    let client = try daemon.client()

    let adds = names.map { request($0, attaching: [sources[$0]!]) }
    let staging = Task { () -> Result<AddResult, ChimeError> in
      do throws(ChimeError) { return .success(try await client.add(adds[0])) } catch { return .failure(error) }
    }
    // The first add starts staging; polled, not waited on: a blocked cooperative thread could
    // keep the add from being sent. Generous bounds: the whole suite runs in parallel.
    guard try await waitUntil(within: 10, { entered.wait(timeout: .now()) == .success }) else { return }
    let waiting = adds.dropFirst().map { add in
      Task { () -> ChimeError? in
        do throws(ChimeError) {
          _ = try await client.add(add)
          return nil
        } catch {
          return error
        }
      }
    }
    // Both later adds wait for the lane.
    guard try await waitUntil(within: 10, { daemon.daemon.stats().fileLaneQueued == 2 }) else { return }

    daemon.daemon.shutdown()
    for (name, task) in zip(names.dropFirst(), waiting) {
      let error = await task.value
      #expect(error?.code == .unavailable && error?.reason == "SHUTTING_DOWN", "\(name): \(String(describing: error))")
      #expect(error?.message.contains("untouched") == true, "\(String(describing: error?.message))")
      #expect(FileManager.default.contents(atPath: sources[name]!) == png, "\(name) was refused, so its file stays")
    }
    // Still held in the lane: chimed waits for it before it stops.
    #expect(daemon.daemon.stats().fileLaneRunning == 1)
    release.signal()
    let answer = await staging.value
    #expect((try? answer.get())?.pending.request.content.attachments.count == 1, "the add that was staging is answered: \(answer)")
    daemon.daemon.waitUntilStopped()
    d = nil

    let after = try InProcessDaemon(directory: directory)
    #expect(try await after.client().allPending().map(\.request.identifier) == ["staging"])
    #expect(!MediaCorpus.exists(sources["staging"]!), "moved into the store")
    #expect(store(after).count == 1)
  }
}
