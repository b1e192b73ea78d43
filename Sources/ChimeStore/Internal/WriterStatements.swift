
/// The direct statements of the writer's connection (`WriteTransaction.DirectSQL`), prepared on
/// first use and kept for the store's life, so a lone add does not look them up again.
///
/// Only write transactions touch it, and the pool runs those one at a time under the writer's
/// lock, which orders every access: hence `@unchecked Sendable` without a lock. `ChimeDatabase.close`
/// empties it once no write can run, before the connection closes.
final class WriterStatements: @unchecked Sendable {
  private var statements = [DirectStatement?](repeating: nil, count: WriteTransaction.DirectSQL.allCases.count)

  /// `sql`'s statement on `db`, the writer's connection.
  func statement(_ sql: WriteTransaction.DirectSQL, _ db: Database) throws -> DirectStatement {
    if let statement = statements[sql.rawValue] { return statement }
    let statement = try DirectStatement(db, sql.sql)
    statements[sql.rawValue] = statement
    return statement
  }

  /// Lets go of every statement (their connection is about to close).
  func removeAll() {
    statements = [DirectStatement?](repeating: nil, count: statements.count)
  }
}
