public import ChimeCore

/// One change to the store, with an outcome type of its own. `ChimeDatabase.commit(_:)`
/// applies a batch of them in one transaction; each is checked against the stored state on
/// its own (a savepoint each), so one that fails leaves the others unaffected.
///
/// A mutation carries everything it writes: the decisions (what a fire delivers, where a
/// floating trigger moves) are made before it is built, and the store only checks that the
/// rows they were made from are unchanged.
public protocol Mutation: Sendable {
  associatedtype Outcome: Sendable
  /// The app the mutation changes, for logs ("*" for several).
  var app: String { get }
  /// Applies the change inside the batch's transaction. Throws a `ChimeError` that fails this
  /// mutation alone, or a database error that may fail the batch.
  func apply(in transaction: WriteTransaction) throws -> Outcome
}

/// What mutations that append events and release attachment files report.
public protocol MutationOutcome: Sendable {
  /// The events the mutation appended, as stored (cursors assigned), in cursor order.
  var events: [Event] { get }
  /// Attachment files in the store that nothing holds any more: unlink them after the commit.
  var discardedFiles: [String] { get }
}
