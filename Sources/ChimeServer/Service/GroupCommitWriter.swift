import ChimeCore
import ChimeStore

/// Queues state changes made on the loop and commits them in batches, one batch at a time, on
/// the work pool (group commit). Each change's completion runs on the loop only after the
/// batch holding it is durable, so a call is answered only once its change is safe.
///
/// Throughput comes from batching: while one batch commits, new changes queue up and go
/// together in the next one.
final class GroupCommitWriter {
  private typealias Completion = (Result<any Sendable, ChimeError>) -> Void

  private let loop: EventLoop
  private let database: ChimeDatabase
  private let maxBatch: Int
  private var queue: [(mutation: any Mutation, completion: Completion)] = []
  private var inFlight = false
  private var idleWaiters: [() -> Void] = []

  /// Batches committed and changes in them, for stats.
  private(set) var batchesCommitted = 0
  private(set) var mutationsCommitted = 0

  init(loop: EventLoop, database: ChimeDatabase, maxBatch: Int = 4096) {
    self.loop = loop
    self.database = database
    self.maxBatch = maxBatch
  }

  var isIdle: Bool { !inFlight && queue.isEmpty }

  /// Queues `mutation`; `completion` gets its outcome on the loop once its batch is durable.
  func submit<M: Mutation>(_ mutation: M, completion: @escaping (Result<M.Outcome, ChimeError>) -> Void) {
    loop.assertInLoop()
    // The store answers each mutation with its own Outcome type: the cast cannot fail.
    queue.append((mutation, { result in completion(result.map { $0 as! M.Outcome }) }))
    if !inFlight { commitNextBatch() }
  }

  /// Runs `action` once everything submitted so far is committed.
  func whenIdle(_ action: @escaping () -> Void) {
    if isIdle { action() } else { idleWaiters.append(action) }
  }

  private func commitNextBatch() {
    guard !queue.isEmpty else {
      let waiters = idleWaiters
      idleWaiters.removeAll()
      for waiter in waiters { waiter() }
      return
    }
    let take = min(queue.count, maxBatch)
    let batch = Array(queue.prefix(take))
    queue.removeFirst(take)
    inFlight = true
    let mutations = batch.map(\.mutation)
    let database = self.database
    loop.runBlocking({ database.commit(mutations) }, then: { [self] results in
      inFlight = false
      batchesCommitted += 1
      mutationsCommitted += batch.count
      for (entry, result) in zip(batch, results) { entry.completion(result) }
      if results.count < batch.count {
        for entry in batch[results.count...] { entry.completion(.failure(.internal("store returned too few results"))) }
      }
      commitNextBatch()
    })
  }
}
