import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A user's store written by the GRDB-based ChimeStore (Tests/Fixtures/grdb-store, a v11 store)
/// opens with the store's own SQLite layer: its `grdb_migrations` table says what is migrated,
/// so only the migrations added since run, and its requests and events read back.
@Suite struct GRDBStoreTests {
  static let fixture: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }  // ChimeStoreTests, Tests
    return url.appendingPathComponent("Fixtures/grdb-store/chime.db").path
  }()

  let dir = TemporaryDirectory()

  /// A copy of the fixture in a private directory, as chimed keeps its store.
  func copy(as name: String = "data") throws -> String {
    try FileManager.default.createDirectory(atPath: dir.file(name), withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
    let path = dir.file("\(name)/chime.db")
    try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
    return path
  }

  /// The schema's SQL and the recorded migrations, read with a plain connection.
  func layout(_ path: String) throws -> (schema: [String], migrations: [String]) {
    let queue = try DatabaseQueue(path: path)
    defer { queue.close() }
    return try queue.read { (db) throws in
      (try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_schema ORDER BY name"),
       try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"))
    }
  }

  @Test func aStoreWrittenByTheGRDBCodeOpensWithoutMigratingAgainAndReadsBack() throws {
    let path = try copy()
    let before = try layout(path)
    #expect(before.migrations.count == 11, "the fixture is a fully migrated v11 store")

    let database = try ChimeDatabase(path: path)
    let page = try database.pendingPage(app: "org.chime.bench", page: PageRequest())
    #expect(page.items.map(\.request.identifier) == ["check-0", "check-1", "check-2"])
    #expect(page.items.allSatisfy { $0.fireCount == 0 && $0.nextFire > $0.added })
    #expect(try database.pendingCount() == 3)
    #expect(try database.lastCursor() == 3)
    #expect(try database.events(app: "org.chime.bench", after: 0, limit: 10).map(\.kind) == [.pendingAdded, .pendingAdded, .pendingAdded])
    #expect(try database.soonest(after: nil, limit: 10).map(\.identifier) == ["check-0", "check-1", "check-2"])
    #expect(!FileManager.default.fileExists(atPath: path + ".before-migration"), "the copy made before migrating is removed once it committed")
    // It keeps working: an add takes the next cursor.
    let request = NotificationRequest(identifier: "after", content: NotificationContent(title: "t"),
                                      trigger: .timeInterval(TimeIntervalTrigger(seconds: 60)))
    let outcome = try database.commit(AddPending(app: "org.chime.bench", pending: Fixtures.pending(request, added: t0), at: t0)).get()
    #expect(outcome.events.map(\.cursor) == [4])
    database.close()

    let after = try layout(path)
    #expect(Array(after.migrations.prefix(before.migrations.count)) == before.migrations, "none ran again")
    #expect(after.migrations.dropFirst(before.migrations.count).allSatisfy { !before.migrations.contains($0) })
    let fresh = dir.file("fresh/chime.db")
    try ChimeDatabase(path: fresh).close()
    #expect(after.migrations == (try layout(fresh)).migrations, "the ones added since ran, in order")
  }

  /// What this build records is what GRDB recorded: the same table, the same identifiers, in
  /// the order registered.
  @Test func aNewStoreRecordsItsMigrationsAsGRDBDid() throws {
    let path = dir.file("new/chime.db")
    try ChimeDatabase(path: path).close()
    let fixture = try layout(try copy())
    let made = try layout(path)
    let table = { (layout: (schema: [String], migrations: [String])) in layout.schema.filter { $0.hasPrefix("table grdb_migrations:") } }
    #expect(table(made) == ["table grdb_migrations: CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"])
    #expect(table(made) == table(fixture))
    #expect(Array(made.migrations.prefix(fixture.migrations.count)) == fixture.migrations)
    // The fixture migrated by this build has the schema a new store has.
    let migrated = try copy(as: "migrated")
    try ChimeDatabase(path: migrated).close()
    #expect(try layout(migrated).schema == made.schema, "a store migrated from the GRDB one is what a new store is")
  }
}
