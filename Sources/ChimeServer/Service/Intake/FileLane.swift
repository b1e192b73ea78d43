import DequeModule

/// Blocking file work — inspecting and copying attachments of up to 50 MB each — on the work
/// pool, at most `width` jobs at a time; the rest wait their turn in order. libuv's pool has four
/// threads shared with group commits and reads, so without this a few clients adding large
/// movies at once would hold every thread and stall everyone else's calls and fires. Removing
/// files goes through the lane too: unlinking a 50 MB movie holds its thread for 30–90 ms on
/// ext4, and a few of those at once had left no thread for the next group commit. The
/// presenters run the programs they start (a present command, a sound player) through lanes
/// of their own for the same reason. Loop thread only.
final class FileLane {
  private struct Job {
    let start: () -> Void
    /// nil for work that must run whatever comes (`runToEnd`).
    let refuse: (() -> Void)?
  }

  private let loop: EventLoop
  let width: Int
  private(set) var running = 0
  private var waiting: Deque<Job> = []
  private(set) var closed = false

  init(loop: EventLoop, width: Int = 2) {
    precondition(width > 0)
    self.loop = loop
    self.width = width
  }

  /// Jobs queued behind the running ones.
  var queued: Int { waiting.count }

  /// Runs `work` on the pool when a place in the lane is free, then `then` with its result on
  /// the loop thread. Once the lane is closed, `refuse` runs instead (at once, or when
  /// `close()` drops the job from the queue); a job already running always finishes.
  func run<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping (T) -> Void, refuse: @escaping () -> Void) {
    loop.assertInLoop()
    guard !closed else { return refuse() }
    enqueue(work, then: then, refuse: refuse)
  }

  /// Runs `work` in the lane like any job, but it is never refused: once the lane is closed it
  /// still waits for a place and runs. For work that must happen once a commit is made —
  /// unlinking files nothing holds, a moved file's source — where refusing would leave files
  /// behind.
  func runToEnd<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping (T) -> Void) {
    loop.assertInLoop()
    enqueue(work, then: then, refuse: nil)
  }

  private func enqueue<T: Sendable>(_ work: @escaping @Sendable () -> T, then: @escaping (T) -> Void, refuse: (() -> Void)?) {
    let start = { [self] in
      running += 1
      loop.runBlocking(work) { [self] value in
        running -= 1
        if let next = waiting.popFirst() { next.start() }
        then(value)
      }
    }
    if running < width { start() } else { waiting.append(Job(start: start, refuse: refuse)) }
  }

  /// Takes no more jobs and refuses the queued ones, in order; running jobs, and queued ones
  /// from `runToEnd`, go on to their end.
  func close() {
    loop.assertInLoop()
    closed = true
    let queued = waiting
    waiting.removeAll()
    for job in queued {
      if let refuse = job.refuse { refuse() } else { waiting.append(job) }
    }
  }
}
