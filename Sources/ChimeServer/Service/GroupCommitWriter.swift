import ChimeSystem
import ChimeCore
import ChimeStore

/// Queues state changes made on the loop and commits them in batches, one batch at a time, on
/// the work pool (group commit). Each change's completion runs on the loop only after the
/// batch holding it is durable, so a call is answered only once its change is safe.
///
/// Throughput comes from batching: while one batch commits, new changes queue up and go
/// together in the next one. The pool thread that commits keeps going while changes are
/// queued: it takes the next batch as soon as one is durable and hands the results to the loop
/// without waiting for it, so the store is never idle while the loop answers the last batch.
/// (Before, each batch went back through the loop first: 32 clients' adds spent about a fifth
/// of every batch's time on that hop.) A batch after which nothing is queued goes back with
/// the work item's own completion instead: one wake-up of the loop rather than two, for a
/// lone call the common case. Batches are numbered as they are taken and answered in that
/// order, whichever way each comes back.
final class GroupCommitWriter {
  /// Runs a change's completion with its typed outcome, once its batch is committed.
  private typealias Completion = () -> Void

  /// What the committing thread and the loop share: the changes not yet taken, and whether a
  /// pool thread is committing (at most one is).
  private struct Shared {
    var queue: [any QueuedMutation] = []
    var committing = false
    /// The number the next batch taken gets.
    var nextBatch = 0
  }

  private let loop: EventLoop
  private let database: ChimeDatabase
  private let maxBatch: Int
  private let shared = Locked(Shared())
  /// Loop-confined: the completions of submitted changes, in submission order; results come
  /// back in the same order (one committing thread, batches taken from the front).
  private var completions: [Completion] = []
  private var completionsHead = 0
  private var idleWaiters: [() -> Void] = []
  /// Loop-confined: committed batches put back in the order they were taken (a new committing
  /// thread's batch can overtake the last one of the thread before).
  private var order = BatchOrder<Committed>()

  /// Batches committed and changes in them, for stats.
  private(set) var batchesCommitted = 0
  private(set) var mutationsCommitted = 0

  init(loop: EventLoop, database: ChimeDatabase, maxBatch: Int = 4096) {
    self.loop = loop
    self.database = database
    self.maxBatch = maxBatch
  }

  /// True while a batch's completions run: until the last of them has, the writer is not idle
  /// (a completion that asks `whenIdle` must not run its action before the others answer).
  private var delivering = false

  /// Nothing submitted is waiting for its commit or its answer.
  var isIdle: Bool { !delivering && completionsHead == completions.count }

  /// Queues `mutation`; `completion` gets its outcome on the loop once its batch is durable.
  func submit<M: Mutation>(_ mutation: M, completion: @escaping (Result<M.Outcome, ChimeError>) -> Void) {
    loop.assertInLoop()
    let change = QueuedChange(mutation)
    completions.append({ completion(change.result) })
    let start = shared.withLock { shared -> Bool in
      shared.queue.append(change)
      defer { shared.committing = true }
      return !shared.committing
    }
    if start { startCommitting() }
  }

  /// Runs `action` once everything submitted so far is committed and answered.
  func whenIdle(_ action: @escaping () -> Void) {
    if isIdle { action() } else { idleWaiters.append(action) }
  }

  private func startCommitting() {
    let (shared, database, loop, maxBatch) = (self.shared, self.database, self.loop, self.maxBatch)
    let writer = LoopBound(self, loop: loop)
    loop.runBlocking({ () -> [Committed] in
      // Batches answered through this work item's completion, which libuv runs on the loop:
      // the last one (nothing was queued after it), and those the loop could no longer be
      // handed through `execute` (its wake-up handle is closed: the daemon is stopping).
      var kept: [Committed] = []
      while true {
        let taken = shared.withLock { shared -> (batch: [any QueuedMutation], number: Int) in
          let take = min(shared.queue.count, maxBatch)
          guard take > 0 else {
            shared.committing = false
            return ([], 0)
          }
          let batch = Array(shared.queue.prefix(take))
          shared.queue.removeFirst(take)
          shared.nextBatch += 1
          return (batch, shared.nextBatch - 1)
        }
        if taken.batch.isEmpty { return kept }
        database.commit(taken.batch)
        let committed = Committed(number: taken.number, count: taken.batch.count)
        let last = shared.withLock { shared -> Bool in
          guard shared.queue.isEmpty else { return false }
          shared.committing = false
          return true
        }
        if last || !loop.execute({ writer.value.delivered(committed) }) { kept.append(committed) }
        if last { return kept }
      }
    }, then: { kept in
      for committed in kept { writer.value.delivered(committed) }
    })
  }

  /// A committed batch: its changes hold their outcomes, their completions are next in line
  /// once the batches numbered before it are answered.
  private struct Committed: Sendable {
    var number: Int
    var count: Int
  }

  /// Answers `committed` when it is next in line, and the batches that waited for it.
  private func delivered(_ committed: Committed) {
    for batch in order.arrived(committed.number, committed) { answer(batch) }
  }

  private func answer(_ committed: Committed) {
    batchesCommitted += 1
    mutationsCommitted += committed.count
    let start = completionsHead
    completionsHead += committed.count
    delivering = true
    // By index: a completion may submit (append) while these run.
    for offset in 0..<committed.count {
      completions[start + offset]()
    }
    delivering = false
    if completionsHead == completions.count {
      completions.removeAll(keepingCapacity: completions.count <= 4096)
      completionsHead = 0
    } else if completionsHead >= 4096 && completionsHead * 2 >= completions.count {
      completions.removeFirst(completionsHead)
      completionsHead = 0
    }
    guard isIdle, !idleWaiters.isEmpty else { return }
    let waiters = idleWaiters
    idleWaiters.removeAll()
    for waiter in waiters { waiter() }
  }
}

/// Batches numbered from 0 as they were taken, handed on in that order whatever order they
/// arrive in: one that comes early waits for those before it.
struct BatchOrder<Batch> {
  private var next = 0
  private var early: [Int: Batch] = [:]

  /// `batch`, numbered `number`, arrived: the batches now next in line, in order (none when
  /// one before it is still out).
  mutating func arrived(_ number: Int, _ batch: Batch) -> [Batch] {
    guard number == next else {
      early[number] = batch
      return []
    }
    var ready = [batch]
    next += 1
    while let waiting = early.removeValue(forKey: next) {
      ready.append(waiting)
      next += 1
    }
    return ready
  }
}
