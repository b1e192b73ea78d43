import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

@Suite(.testTimeLimit) struct SubprocessCaptureTests {
  /// A child still running at its time-out is killed with its process group (a grandchild it
  /// left running too), reaped, and reported timed out, through a slot as without one.
  @Test(arguments: [false, true]) func aChildOutOfTimeIsKilledWithItsGroup(withSlot: Bool) throws {
    let captured = Subprocess.capture(["/bin/sh", "-c", "sleep 30 & echo $!; wait"], timeoutMillis: 300,
                                      slot: withSlot ? ProcessSlot() : nil)
    #expect(captured.outcome == .timedOut(millis: 300))
    let grandchild = try #require(Int32(String(decoding: captured.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(pollUntil(within: 10) { !Self.isRunning(grandchild) }, "the grandchild died with its group")
  }

  /// The thumbnail helper's reader: a child that writes far more than is kept (megabytes) costs
  /// the last `maxOutputBytes` of it, never what it wrote, and never blocks on a full pipe.
  @Test func aChattyChildLeavesOnlyItsLastBytes() {
    let captured = Subprocess.capture(["/bin/sh", "-c", "head -c 5000000 /dev/zero; printf 'REASON: the last line'"],
                                      timeoutMillis: 10_000, maxOutputBytes: 2048)
    #expect(captured.outcome == .exited(0))
    #expect(captured.truncated && captured.stdout.count == 2048)
    #expect(String(decoding: captured.stdout.suffix(21), as: UTF8.self) == "REASON: the last line")
    #expect(captured.stdout.capacity < 64 << 10, "kept \(captured.stdout.capacity) bytes of capacity")
  }

  /// `stop()` from another thread ends the child with SIGTERM long before its time-out.
  @Test func aStopFromAnotherThreadEndsTheChild() {
    let slot = ProcessSlot()
    let started = Date()
    BackgroundThread.start(name: "test-stop") { slot.stop() }
    let captured = Subprocess.capture(["/bin/sleep", "30"], timeoutMillis: 30_000, slot: slot)
    #expect(captured.outcome == .signaled(SIGTERM))
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(slot.isStopped)
  }

  /// Running: the process exists and is not a zombie waiting for its parent.
  private static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].first
    return state != "Z" && state != "X"
  }

  /// `input` reaches the child's stdin while its output is read: megabytes each way, so a
  /// writer that waited for the whole input to go in before reading would deadlock on full pipes.
  @Test func inputGoesInWhileOutputComesOut() {
    let input = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
    let captured = Subprocess.capture(["/bin/cat"], timeoutMillis: 20_000, maxOutputBytes: 4 << 20, input: input)
    #expect(captured.outcome == .exited(0))
    #expect(captured.stdout == input)
    // A child that reads nothing and exits: an EPIPE for the writer, not a SIGPIPE.
    let deaf = Subprocess.capture(["/bin/true"], timeoutMillis: 20_000, input: input)
    #expect(deaf.outcome == .exited(0))
  }
}
