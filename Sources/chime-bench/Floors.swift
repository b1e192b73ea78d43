import ChimeSystem
import Foundation
import CSQLite
import Glibc

/// What the machine itself can do, measured in the same run as chimed's figures so that a
/// busy machine lowers both: every goal is a ratio to one of these.
enum Floors {
  // MARK: SQLite

  struct SQLiteFloors {
    /// Rows/s inserting in 64-row transactions (WAL, synchronous=FULL).
    var batchRowsPerSecond: Double
    var batchRows: Int
    /// One-row transactions (WAL, synchronous=FULL): commit latency in µs.
    var singleCommitP50Micros: Double
    var singleCommits: Int
  }

  /// An fsync'd insert loop into a table shaped like chimed's `pending` (primary key on
  /// app+identifier, two indexes, a ~120-byte body), in `directory` (the benchmark's temp
  /// directory: the same file system as the daemon's data directory). Bounded by count and time.
  static func sqlite(in directory: String, batches: Int = 400, singles: Int = 1_000, seconds: Double = 15) throws -> SQLiteFloors {
    let path = directory + "/floor.sqlite"
    defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    let sqlite = try BenchSQLite(path: path)
    // The connection is used through its raw pointer below: closed only at the end.
    defer { withExtendedLifetime(sqlite) {} }
    let db = sqlite.db
    func exec(_ sql: String) throws { try sqlite.exec(sql) }
    try exec("PRAGMA journal_mode = WAL")
    try exec("PRAGMA synchronous = FULL")
    try exec("""
      CREATE TABLE pending (app TEXT NOT NULL, identifier TEXT NOT NULL, next_fire INTEGER NOT NULL,
        added INTEGER NOT NULL, fire_count INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (app, identifier));
      CREATE INDEX pending_by_due ON pending (next_fire, app, identifier);
      CREATE INDEX pending_by_app_due ON pending (app, next_fire, identifier);
      """)
    var insert: OpaquePointer?
    guard sqlite3_prepare_v2(db, "INSERT INTO pending VALUES (?, ?, ?, ?, 0, ?)", -1, &insert, nil) == SQLITE_OK, let insert else {
      throw BenchError("sqlite prepare: \(String(cString: sqlite3_errmsg(db)))")
    }
    defer { sqlite3_finalize(insert) }
    let body = [UInt8](repeating: 0x5a, count: 120)
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)  // SQLITE_TRANSIENT: SQLite copies
    var row = 0
    func insertRow() throws {
      row += 1
      let id = "floor-\(row)"
      _ = "org.chime.bench".withCString { sqlite3_bind_text(insert, 1, $0, -1, transient) }
      _ = id.withCString { sqlite3_bind_text(insert, 2, $0, -1, transient) }
      sqlite3_bind_int64(insert, 3, Int64(1_800_000_000_000 + row))
      sqlite3_bind_int64(insert, 4, Int64(1_700_000_000_000 + row))
      _ = body.withUnsafeBytes { sqlite3_bind_blob(insert, 5, $0.baseAddress, Int32($0.count), transient) }
      guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError("sqlite insert: \(String(cString: sqlite3_errmsg(db)))") }
      sqlite3_reset(insert)
    }
    // 64-row transactions.
    let limit = ContinuousClock.now + .milliseconds(Int(seconds * 500))
    let start = ContinuousClock.now
    var batchRows = 0
    for _ in 0..<batches where ContinuousClock.now < limit {
      try exec("BEGIN IMMEDIATE")
      for _ in 0..<64 { try insertRow() }
      try exec("COMMIT")
      batchRows += 64
    }
    let batchSeconds = (ContinuousClock.now - start).seconds
    // One-row transactions, each timed.
    let singleLimit = ContinuousClock.now + .milliseconds(Int(seconds * 500))
    var commits: [Double] = []
    for _ in 0..<singles where ContinuousClock.now < singleLimit {
      let t0 = ContinuousClock.now
      try exec("BEGIN IMMEDIATE")
      try insertRow()
      try exec("COMMIT")
      commits.append((ContinuousClock.now - t0).micros)
    }
    return SQLiteFloors(batchRowsPerSecond: Double(batchRows) / batchSeconds, batchRows: batchRows,
                        singleCommitP50Micros: commits.sorted().percentile(0.5), singleCommits: commits.count)
  }

  // MARK: Unix-socket echo

  /// Round trips of a 128-byte message to an echo thread over a Unix socket in `directory`:
  /// the least a call to chimed can cost. The p50 in µs, and the calling thread's user+system
  /// CPU per round trip in µs (its send, its wait and its receive: the kernel's share of a
  /// call, which a client pays whatever its own code costs).
  static func socketEcho(in directory: String, roundTrips: Int = 5_000, seconds: Double = 10) throws -> (p50Micros: Double, count: Int, clientCPUMicros: Double) {
    let path = directory + "/echo.sock"
    let listener = try UnixSocket.listen(path: path)
    defer { listener.close(); unlink(path) }
    let server = Thread {
      guard let peer = try? UnixSocket.accept(listener) else { return }
      defer { peer.close() }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { recv(peer.rawValue, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return }
        let sent = buffer.withUnsafeBytes { send(peer.rawValue, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }
        if sent != n { return }
      }
    }
    server.start()
    let client = try UnixSocket.connect(path: path)
    defer { client.close() }
    let message = [UInt8](repeating: 0x42, count: 128)
    var reply = [UInt8](repeating: 0, count: 4096)
    var times: [Double] = []
    times.reserveCapacity(roundTrips)
    let limit = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    let cpu = Bench.threadCPUMicros()
    for _ in 0..<roundTrips where ContinuousClock.now < limit {
      let t0 = ContinuousClock.now
      let sent = message.withUnsafeBytes { send(client.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent == message.count else { throw BenchError("echo send failed") }
      var got = 0
      while got < message.count {
        let n = reply.withUnsafeMutableBytes { recv(client.rawValue, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw BenchError("echo recv failed") }
        got += n
      }
      times.append((ContinuousClock.now - t0).micros)
    }
    let clientCPU = (Bench.threadCPUMicros() - cpu) / Double(max(times.count, 1))
    return (times.sorted().percentile(0.5), times.count, clientCPU)
  }

  // MARK: Redis

  /// Redis 7 with `appendfsync always` on a Unix socket in `directory`, HSET from
  /// redis-benchmark with `clients` clients: requests/s. Nil (with the reason) when
  /// redis-server or redis-benchmark is not installed.
  static func redisHSET(in directory: String, clients: Int, requests: Int = 50_000) throws -> (rate: Double?, note: String) {
    guard let server = Spawned.resolve("redis-server"), let benchmark = Spawned.resolve("redis-benchmark") else {
      return (nil, "redis-server/redis-benchmark not installed (apt-get install redis-server to compare): Redis floor skipped")
    }
    let dir = directory + "/redis"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let socket = dir + "/redis.sock"
    let pidFile = dir + "/redis.pid"
    // Daemonized, on no TCP port, writing its pid: stopped below by that pid.
    let started = try Spawned.run(server, ["--port", "0", "--unixsocket", socket, "--dir", dir, "--appendonly", "yes",
                                           "--appendfsync", "always", "--save", "", "--daemonize", "yes",
                                           "--pidfile", pidFile, "--logfile", dir + "/redis.log"],
                                  scratch: directory)
    guard started.status == 0 else { return (nil, "redis-server did not start (status \(started.status)): Redis floor skipped") }
    var redisPid: pid_t = 0
    defer {
      if redisPid > 0 {
        kill(redisPid, SIGTERM)
        for _ in 0..<500 where kill(redisPid, 0) == 0 { usleep(10_000) }
      }
    }
    for _ in 0..<500 {
      if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
         UnixSocket.isAccepting(path: socket) {
        redisPid = pid
        break
      }
      usleep(10_000)
    }
    guard redisPid > 0 else { return (nil, "redis-server did not answer on \(socket) within 5 s: Redis floor skipped") }
    let run = try Spawned.run(benchmark, ["-s", socket, "-c", "\(clients)", "-n", "\(requests)", "-t", "hset", "--csv"],
                              scratch: directory, timeoutSeconds: 120)
    // --csv: a header line, then "HSET","32000.00",... per test.
    for line in run.output.split(separator: "\n") where line.hasPrefix("\"HSET") {
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
      if fields.count > 1, let rate = Double(fields[1]) { return (rate, "redis-benchmark -c \(clients) -n \(requests) -t hset") }
    }
    return (nil, "redis-benchmark gave no HSET figure (status \(run.status)): Redis floor skipped")
  }
}
