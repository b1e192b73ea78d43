import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A damaged store is refused at start-up with a message saying what to do, and never
/// overwritten; a migration works on a store copied first with SQLite's backup API.
@Suite struct DamagedStoreTests {
  func expectDamaged(_ path: String, mentioning what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      let db = try ChimeDatabase(path: path)
      db.close()
      Issue.record("a damaged store opened", sourceLocation: sourceLocation)
    } catch {
      #expect(error.has(.storeDamaged), "\(error)", sourceLocation: sourceLocation)
      #expect(error.code == .dataLoss, sourceLocation: sourceLocation)
      #expect(error.message.contains(what), "\(error.message)", sourceLocation: sourceLocation)
      #expect(error.message.contains("mv \(path) \(path).damaged"), "\(error.message)", sourceLocation: sourceLocation)
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("chime.db")
    var garbage = SplitMix64(seed: 7)
    let bytes = Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: garbage.next()) })
    try bytes.write(to: URL(fileURLWithPath: path))
    expectDamaged(path, mentioning: "not a database")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAtOnceHoweverLarge() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("chime.db")
    try Data(repeating: 0x5A, count: 64 * 1024).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try ChimeDatabase(path: path, checkAtOpenLimit: 0)
    } throws: { error in
      (error as? ChimeError)?.reason == "STORE_DAMAGED"
    }
  }

  @Test func aStoreFailingItsCheckIsRefusedAndKept() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("chime.db")
    let db = try ChimeDatabase(path: path)
    for i in 0..<400 {
      _ = try db.commit(AddPending(app: "app", pending: Fixtures.pending(Fixtures.request("r\(i)", title: String(repeating: "x", count: 200)), added: t0), at: t0)).get()
    }
    db.close()
    // Everything into the main file, and no WAL left for the next open to replay.
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    queue.close()
    // Scribble over a page in the middle of the file, past the schema.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let pageSize = 4096
    let page = bytes.count / pageSize / 2
    for i in 0..<pageSize where i % 7 != 0 { bytes[page * pageSize + i] = 0xA5 }
    try bytes.write(to: URL(fileURLWithPath: path))
    expectDamaged(path, mentioning: "damaged")
    let after = try Data(contentsOf: URL(fileURLWithPath: path))
    let changed = zip(after, bytes).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
    #expect(after.count == bytes.count, "page \(page)")
    #expect(changed.isEmpty, "a damaged store is never rewritten: changed \(changed.prefix(20))")
  }

  /// A v5 store (before the pending counts) is copied aside, migrated, and the copy removed.
  @Test func aMigrationStartsFromACopyAndRemovesItOnceCommitted() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("chime.db")
    let old = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(old, upTo: "v5: authorization and badge")
    old.close()
    let db = try ChimeDatabase(path: path)
    _ = try db.commit(AddPending(app: "app", pending: Fixtures.pending(Fixtures.request("a"), added: t0), at: t0)).get()
    #expect(try db.pendingCount() == 1)
    db.close()
    #expect(!FileManager.default.fileExists(atPath: path + ".before-migration"))
  }

  /// When a migration fails, the store as it was stays beside it, whole, and the store itself
  /// is not half-migrated.
  @Test func aFailedMigrationLeavesTheCopy() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("chime.db")
    let old = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(old, upTo: "v5: authorization and badge")
    // Something v6 cannot create over.
    try old.write { db in
      try db.execute(sql: "CREATE TABLE app_pending (x INTEGER)")
      try db.execute(sql: "INSERT INTO app_authorization (app, status, badge_count, changed_at) VALUES ('kept', 2, 3, 0)")
    }
    old.close()
    #expect(throws: ChimeError.self) { _ = try ChimeDatabase(path: path) }
    let copy = try DatabaseQueue(path: path + ".before-migration")
    #expect(try copy.read { db in try Int.fetchOne(db, sql: "SELECT badge_count FROM app_authorization WHERE app = 'kept'") } == 3)
    copy.close()
    let store = try DatabaseQueue(path: path)
    #expect(try store.read { db in try Schema.migrator.appliedMigrations(db).last } == "v5: authorization and badge")
    store.close()
  }

  /// The copy holds every reminder the store does: it is made with the store's mode (0600),
  /// not the umask's, whatever the directory's own mode (a store path set to a file in a home
  /// directory readable by others), and stays so when a failed migration leaves it there.
  @Test func theCopyBeforeAMigrationIsAsPrivateAsTheStore() throws {
    let dir = TemporaryDirectory()
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
    let path = dir.file("chime.db")
    let old = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(old, upTo: "v5: authorization and badge")
    try old.write { db in try db.execute(sql: "CREATE TABLE app_pending (x INTEGER)") }  // v6 fails
    old.close()
    #expect(throws: ChimeError.self) { _ = try ChimeDatabase(path: path) }
    let mode = try FileManager.default.attributesOfItem(atPath: path + ".before-migration")[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }
}
