public import ChimeCore
import ChimeSystem

/// What `ChimeDatabase.compact(path:)` did.
public struct CompactionReport: Sendable, Equatable {
  public var bytesBefore: Int64
  public var bytesAfter: Int64
  public var pageSizeBefore: Int
  public var pageSizeAfter: Int
}

extension ChimeDatabase {
  /// Rebuilds the store at `path` in place with SQLite's VACUUM, for `chimed --compact-store`:
  /// the space of removed requests and pruned events is given back, and a store made before
  /// `pageSize` became 2 KiB takes it (SQLite changes a database's page size only by rebuilding
  /// it, and only outside WAL mode). Blocking, and only with chimed stopped: the store leaves
  /// WAL mode for the rebuild, which SQLite refuses while another connection has it open, and
  /// that refusal is UNAVAILABLE `STORE_UNAVAILABLE` saying so. The rebuild is one transaction
  /// of SQLite's rollback journal: an interruption leaves the store as it was, and the next
  /// start puts it back in WAL mode. Ends with `PRAGMA quick_check`.
  public static func compact(path: String) throws(ChimeError) -> CompactionReport {
    guard FileSystem.status(path) != nil else {
      throw ChimeError(.storeMissing, "\(path) does not exist: there is no store to compact")
    }
    func size() -> Int64 {
      ["", "-wal"].reduce(0) { total, suffix in
        total + (FileSystem.status(path + suffix)?.size ?? 0)
      }
    }
    let bytesBefore = size()
    do {
      let queue = try DatabaseQueue(path: path)
      defer { queue.close() }
      let (before, after) = try queue.writeWithoutTransaction { db throws -> (Int, Int) in
        let before = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        // Out of WAL mode (SQLite answers the mode it is in: still "wal" while another
        // connection has the store open).
        let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        guard mode == "delete" else {
          throw ChimeError(.storeUnavailable,
                           "\(path) is in use (is chimed running?): stop it, then compact the store")
        }
        try db.execute(sql: "PRAGMA page_size = \(pageSize)")
        try db.execute(sql: "VACUUM")
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        let findings = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
        guard findings == ["ok"] else { throw damaged(path, "quick_check after compacting: " + findings.joined(separator: "; ")) }
        return (before, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
      }
      return CompactionReport(bytesBefore: bytesBefore, bytesAfter: size(), pageSizeBefore: before, pageSizeAfter: after)
    } catch let error as ChimeError {
      throw error
    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
      throw ChimeError(.storeUnavailable,
                       "\(path) is in use (is chimed running?): stop it, then compact the store")
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
      throw damaged(path, error.message ?? "SQLite error \(error.resultCode.rawValue)")
    } catch {
      throw ChimeError(.storeUnavailable, "compacting \(path) failed: \(error)")
    }
  }
}
