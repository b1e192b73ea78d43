import DequeModule

/// Blocking file work — inspecting and copying attachments of up to 50 MB each — on the work
/// pool, at most `width` jobs at a time; the rest wait their turn in order. libuv's pool has four
/// threads shared with group commits and reads, so without this a few clients adding large
/// movies at once would hold every thread and stall everyone else's calls and fires.
/// Loop thread only.
final class FileLane {
  private let loop: EventLoop
  let width: Int
  private(set) var running = 0
  private var waiting: Deque<() -> Void> = []

  init(loop: EventLoop, width: Int = 2) {
    precondition(width > 0)
    self.loop = loop
    self.width = width
  }

  /// Jobs queued behind the running ones.
  var queued: Int { waiting.count }

  /// Runs `work` on the pool when a place in the lane is free, then `then` with its result on
  /// the loop thread.
  func run<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping (T) -> Void) {
    loop.assertInLoop()
    let start = { [unowned self] in
      running += 1
      loop.runBlocking(work) { [unowned self] value in
        running -= 1
        if let next = waiting.popFirst() { next() }
        then(value)
      }
    }
    if running < width { start() } else { waiting.append(start) }
  }
}
