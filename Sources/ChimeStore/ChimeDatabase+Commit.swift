public import ChimeCore
import Logging

extension ChimeDatabase {
  /// Applies `batch` in one transaction (group commit) and records each mutation's outcome in
  /// its `QueuedMutation`. Returns only after the transaction is durable.
  ///
  /// Each mutation runs in its own savepoint: one that fails (INVALID_ARGUMENT for a bad app
  /// or identifier, RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED`, INTERNAL for a record that
  /// cannot be encoded) is rolled back and answered alone, the others still commit. When the
  /// transaction itself fails, every outcome is the same failure: RESOURCE_EXHAUSTED
  /// `STORE_FULL` when the disk is full, UNAVAILABLE `STORE_WRITE_FAILED` for I/O errors and a
  /// busy or locked database, UNAVAILABLE `STORE_CLOSED` after `close()`.
  ///
  /// Retention runs in the same transaction: past `eventRetention` events the oldest go.
  public func commit(_ batch: [any QueuedMutation]) {
    guard !batch.isEmpty else { return }
    if gate.pass({ commitNow(batch) }) == nil {
      for change in batch { change.batchFailed(StoreError.closed) }
    }
  }

  /// Commits a batch of mutations of any types; one result per mutation, in order, each
  /// holding that mutation's `Outcome` as `any Sendable`.
  public func commit(_ batch: [any Mutation]) -> [Result<any Sendable, ChimeError>] {
    let changes = batch.map(ErasedChange.init)
    commit(changes)
    return changes.map(\.result)
  }

  /// Commits one mutation alone and returns its typed outcome.
  public func commit<M: Mutation>(_ mutation: M) -> Result<M.Outcome, ChimeError> {
    let change = QueuedChange(mutation)
    commit([change])
    return change.result
  }

  private func commitNow(_ batch: [any QueuedMutation]) {
    do {
      try pool.writeWithoutTransaction { db in
        try db.inTransaction {
          let transaction = WriteTransaction(db: db, store: self)
          if batch.count == 1 {
            // Alone in its batch, a mutation that fails rolls the transaction back: no
            // savepoint needed (a savepoint and its release were a tenth of an add's work).
            guard try batch[0].apply(in: transaction, store: self) else { return .rollback }
          } else {
            for change in batch {
              try applyInSavepoint(change, transaction)
            }
          }
          try transaction.writePendingCounts()
          if let newest = transaction.newestCursor {
            try EventLog.prune(retention: eventRetention, newest: newest, transaction: transaction)
          }
          return .commit
        }
      }
    } catch {
      let failure = StoreError.map(error, .write, logger: logger, context: "commit of \(batch.count) mutations")
      let status = failure.code == .resourceExhausted || failure.reason == StoreError.closed.reason
        ? failure : StoreError.unavailable(.write)
      for change in batch { change.batchFailed(status) }
    }
  }

  /// Runs one mutation in a savepoint (cached statements: parsed once per connection), rolled
  /// back alone when it fails so the rest of the batch still commits.
  private func applyInSavepoint(_ change: any QueuedMutation, _ transaction: WriteTransaction) throws {
    // Outside a transaction (SQLite rolled it back on an error nobody rethrew), SAVEPOINT would
    // begin one of its own and RELEASE commit this mutation alone: fail the batch instead.
    guard transaction.db.isInsideTransaction else {
      throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back by an earlier error")
    }
    try transaction.direct(.savepoint).execute()
    let newestBefore = transaction.newestCursor
    let countsBefore = transaction.pendingCountChanges
    if try !change.apply(in: transaction, store: self) {
      try transaction.direct(.rollbackToSavepoint).execute()
      transaction.newestCursor = newestBefore
      transaction.pendingCountChanges = countsBefore
    }
    try transaction.direct(.releaseSavepoint).execute()
  }

  /// `body`'s result as one mutation's outcome. Errors that leave the transaction usable are
  /// this mutation's failure (the caller undoes its writes); the rest (I/O, full, busy,
  /// aborted) are rethrown to fail the batch.
  func outcome<T>(app: String, _ body: () throws -> T) throws -> Result<T, ChimeError> {
    do {
      return .success(try body())
    } catch let error as ChimeError {
      return .failure(error)
    } catch let error as DatabaseError where !StoreError.isStatementLocal(error) {
      throw error
    } catch {
      return .failure(StoreError.map(error, .write, logger: logger, context: "mutation for app \(app)"))
    }
  }
}
