public import ChimeCore

/// A mutation on its way through a batch, with the place its outcome goes: the thread that
/// commits the batch applies it and records its outcome (or the batch's failure) here, and
/// whoever queued it reads the outcome once `ChimeDatabase.commit(_:)` has returned. The
/// outcome keeps its type all the way: nothing is erased and cast back.
public protocol QueuedMutation: AnyObject, Sendable {
  /// The app the mutation changes, for logs.
  var app: String { get }
  /// Applies the mutation in `transaction` and records its outcome; true when it succeeded.
  /// Database errors that fail the whole batch are rethrown (see `ChimeDatabase.outcome`).
  func apply(in transaction: WriteTransaction, store: ChimeDatabase) throws -> Bool
  /// Records the failure of the whole batch, replacing an outcome recorded before it failed.
  func batchFailed(_ error: ChimeError)
}

/// One mutation queued for a batch, and its typed outcome.
///
/// Unchecked Sendable: `result` is written only by the thread running `commit(_:)`, and read
/// only after that call has returned to whoever reads it (the group-commit writer hands the
/// batch back to the loop through libuv, which orders the memory).
public final class QueuedChange<M: Mutation>: QueuedMutation, @unchecked Sendable {
  public let mutation: M
  /// STORE_CLOSED until the batch is applied: what a batch the closed store never ran answers.
  public private(set) var result: Result<M.Outcome, ChimeError> = .failure(StoreError.closed)

  public init(_ mutation: M) {
    self.mutation = mutation
  }

  public var app: String { mutation.app }

  public func apply(in transaction: WriteTransaction, store: ChimeDatabase) throws -> Bool {
    let mutation = self.mutation
    result = try store.outcome(app: mutation.app) { try mutation.apply(in: transaction) }
    if case .success = result { return true }
    return false
  }

  public func batchFailed(_ error: ChimeError) {
    result = .failure(error)
  }
}

/// A mutation of any type in a batch of mixed ones, its outcome as `any Sendable`
/// (`ChimeDatabase.commit(_: [any Mutation])`, for callers that look at outcomes generically).
final class ErasedChange: QueuedMutation, @unchecked Sendable {
  let mutation: any Mutation
  private(set) var result: Result<any Sendable, ChimeError> = .failure(StoreError.closed)

  init(_ mutation: any Mutation) {
    self.mutation = mutation
  }

  var app: String { mutation.app }

  func apply(in transaction: WriteTransaction, store: ChimeDatabase) throws -> Bool {
    let mutation = self.mutation
    result = try store.outcome(app: mutation.app) { () throws -> any Sendable in try mutation.apply(in: transaction) }
    if case .success = result { return true }
    return false
  }

  func batchFailed(_ error: ChimeError) {
    result = .failure(error)
  }
}
