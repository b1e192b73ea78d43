/// Append-only named migrations, each applied once in one transaction, in the order registered.
///
/// The identifiers of applied migrations are kept in the table `grdb_migrations (identifier
/// TEXT NOT NULL PRIMARY KEY)`, the name and layout of the GRDB library that Chime's stores were
/// made with: a store it migrated opens here as migrated, and one this build migrates opens
/// there. An identifier there that is not registered here means a newer version migrated the
/// store (`hasBeenSuperseded`).
struct DatabaseMigrator: Sendable {
  static let table = "grdb_migrations"

  private var migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = []

  mutating func registerMigration(_ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void) {
    precondition(!migrations.contains { $0.identifier == identifier }, "already registered migration: \(identifier)")
    migrations.append((identifier, migrate))
  }

  /// Every identifier recorded as applied, registered here or not; none before the first
  /// migration created the table.
  func appliedIdentifiers(_ db: Database) throws -> Set<String> {
    guard try db.tableExists(Self.table) else { return [] }
    return Set(try String.fetchAll(db, sql: "SELECT identifier FROM \(Self.table)"))
  }

  /// The registered migrations that were applied, in the order registered.
  func appliedMigrations(_ db: Database) throws -> [String] {
    let applied = try appliedIdentifiers(db)
    return migrations.map(\.identifier).filter(applied.contains)
  }

  /// The registered migrations applied with every one before them, in order.
  func completedMigrations(_ db: Database) throws -> [String] {
    zip(try appliedMigrations(db), migrations.map(\.identifier)).prefix { $0 == $1 }.map(\.0)
  }

  /// Every registered migration has been applied.
  func hasCompletedMigrations(_ db: Database) throws -> Bool {
    try completedMigrations(db).last == migrations.last?.identifier
  }

  /// The store records a migration this build does not know: a newer version migrated it.
  func hasBeenSuperseded(_ db: Database) throws -> Bool {
    let known = Set(migrations.map(\.identifier))
    return try appliedIdentifiers(db).contains { !known.contains($0) }
  }

  /// Applies the registered migrations not yet applied, each with its record in one
  /// transaction, up to `target` (nil: all of them).
  func migrate(_ pool: DatabasePool, upTo target: String? = nil) throws {
    try pool.writeWithoutTransaction { db in try migrate(db, upTo: target) }
  }

  func migrate(_ queue: DatabaseQueue, upTo target: String? = nil) throws {
    try queue.writeWithoutTransaction { db in try migrate(db, upTo: target) }
  }

  func migrate(_ db: Database, upTo target: String? = nil) throws {
    precondition(target.map { target in migrations.contains { $0.identifier == target } } ?? true, "undefined migration: \(target ?? "")")
    try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.table) (identifier TEXT NOT NULL PRIMARY KEY)")
    let applied = try appliedIdentifiers(db)
    for migration in migrations {
      if !applied.contains(migration.identifier) {
        try db.inTransaction {
          try migration.migrate(db)
          try db.execute(sql: "INSERT INTO \(Self.table) (identifier) VALUES (?)", arguments: [migration.identifier])
          return .commit
        }
      }
      if migration.identifier == target { break }
    }
  }
}
