import ChimeSystem
import ChimeCore
internal import CLibUV
import Synchronization
import Glibc

/// The libuv loop that owns all of the daemon's mutable state.
///
/// Loop-confined objects are touched only from the thread running `run()`. Other threads reach
/// the loop through `execute(_:)` (a locked inbox plus `uv_async_send`, which coalesces wake-ups,
/// so every wake-up drains the whole inbox). Blocking work goes to libuv's work pool through
/// `runBlocking(_:then:)` and its result comes back on the loop thread.
package final class EventLoop: @unchecked Sendable {
  let raw: UnsafeMutablePointer<uv_loop_t>
  private let wakeup: UnsafeMutablePointer<uv_async_t>
  /// Work sent from other threads, and whether the wake-up handle is closed (then nothing is
  /// taken any more: `uv_async_send` on a closed handle is not allowed).
  private let inbox = Locked<(work: [@Sendable () -> Void], closed: Bool)>(([], false))
  /// `pthread_self()` of the thread running the loop, 0 when none: one atomic load per check,
  /// cheap enough for release-build preconditions on every loop-bound access.
  private let loopThread = Atomic<UInt>(0)

  init() throws(ChimeLoopError) {
    raw = .allocate(capacity: 1)
    let rc = uv_loop_init(raw)
    guard rc == 0 else {
      raw.deallocate()
      throw ChimeLoopError("uv_loop_init", rc)
    }
    wakeup = .allocate(capacity: 1)
    uv_async_init(raw, wakeup, eventLoopWakeupCallback())
    wakeup.pointee.data = Unmanaged.passUnretained(self).toOpaque()
  }

  /// Runs the loop on the calling thread until every handle is closed.
  func run() {
    loopThread.store(UInt(pthread_self()), ordering: .releasing)
    uv_run(raw, UV_RUN_DEFAULT)
    drainInbox()
    loopThread.store(0, ordering: .releasing)
  }

  /// True on the thread running the loop.
  var inLoop: Bool {
    loopThread.load(ordering: .acquiring) == UInt(pthread_self())
  }

  /// Stops the process when called off the loop thread, in release builds too: loop-bound
  /// state touched from another thread is a race nothing else would catch.
  func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
    precondition(inLoop, "must run on the loop thread", file: file, line: line)
  }

  /// Runs `work` on the loop thread soon. Safe from any thread. Returns false, and drops
  /// `work`, once the loop has closed its wake-up handle (it is stopping or stopped).
  @discardableResult
  func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
    inbox.withLock { box in
      guard !box.closed else { return false }
      box.work.append(work)
      // Under the lock, so it can never race `closeWakeup`.
      uv_async_send(wakeup)
      return true
    }
  }

  fileprivate func drainInbox() {
    while true {
      let batch = inbox.withLock { box -> [@Sendable () -> Void] in
        let b = box.work
        box.work.removeAll(keepingCapacity: true)
        return b
      }
      if batch.isEmpty { return }
      for work in batch { work() }
    }
  }

  /// Runs `work` on libuv's work pool, then `then` with its result on the loop thread.
  func runBlocking<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping (T) -> Void) {
    assertInLoop()
    let slot = ResultSlot<T>()
    let item = WorkItem(run: { slot.value = work() }, complete: { then(slot.value!) })
    let req = UnsafeMutablePointer<uv_work_t>.allocate(capacity: 1)
    req.pointee.data = Unmanaged.passRetained(item).toOpaque()
    let (workCallback, afterCallback) = workCallbacks()
    let rc = uv_queue_work(raw, req, workCallback, afterCallback)
    if rc != 0 {
      // Only fails for a NULL callback; run inline rather than lose the work.
      Unmanaged<WorkItem>.fromOpaque(req.pointee.data).release()
      req.deallocate()
      item.run()
      item.complete()
    }
  }

  /// Closes the wake-up handle so `run()` can return once everything else is closed.
  func closeWakeup() {
    assertInLoop()
    let wasClosed = inbox.withLock { box in
      defer { box.closed = true }
      return box.closed
    }
    guard !wasClosed else { return }
    drainInbox()
    wakeup.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, nil) }
  }

  deinit {
    uv_loop_close(raw)
    raw.deallocate()
    wakeup.deallocate()
  }
}

package struct ChimeLoopError: Error, CustomStringConvertible {
  package var description: String
  init(_ what: String, _ rc: Int32) {
    description = "\(what): \(String(cString: uv_strerror(rc)))"
  }
  init(_ message: String) { description = message }
}

private final class ResultSlot<T>: @unchecked Sendable {
  var value: T?
}

private final class WorkItem: @unchecked Sendable {
  let run: @Sendable () -> Void
  let complete: () -> Void
  init(run: @escaping @Sendable () -> Void, complete: @escaping () -> Void) {
    self.run = run
    self.complete = complete
  }
}

// C callbacks are created in nonisolated functions: closures in top-level code would be
// main-actor isolated and trap when libuv calls them.
private func eventLoopWakeupCallback() -> uv_async_cb {
  return { handle in
    guard let data = handle?.pointee.data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().drainInbox()
  }
}

private func workCallbacks() -> (uv_work_cb, uv_after_work_cb) {
  let work: uv_work_cb = { req in
    guard let data = req?.pointee.data else { return }
    Unmanaged<WorkItem>.fromOpaque(data).takeUnretainedValue().run()
  }
  let after: uv_after_work_cb = { req, _ in
    guard let req, let data = req.pointee.data else { return }
    let item = Unmanaged<WorkItem>.fromOpaque(data).takeRetainedValue()
    req.deallocate()
    item.complete()
  }
  return (work, after)
}
