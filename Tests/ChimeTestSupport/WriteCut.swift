import ChimeSystem
import ChimeCore
public import Foundation
import Glibc

/// A power cut under `chimed`, simulated with an `LD_PRELOAD` shim
/// (Tests/Fixtures/writecut/writecut.c): while chimed runs, every write to its database files
/// leaves an undo record, and a sync of a file forgets that file's records. After chimed is
/// killed, `revert()` replays the records backwards, so each file holds what it held at its last
/// fsync — everything the kernel had only in its page cache is gone, as after a power cut — and
/// removes SQLite's shared-memory index, which is never synced and is rebuilt from the WAL.
///
/// Files other than the database (attachments, the socket, logs) are not tracked: the shim cuts
/// file contents, not directory entries.
public struct WriteCut: Sendable {
  /// Where the undo logs go (one per tracked file, `<name>.undo`) and the shim's `active` marker.
  public let logDirectory: String
  /// The tracked files: those whose path starts with this.
  public let prefix: String

  public struct Reverted: Sendable {
    public var files = 0
    public var records = 0
    /// Old bytes put back over writes made since their file's last sync.
    public var bytesRestored = 0
  }

  public init(logDirectory: String, dataDirectory: String) {
    self.logDirectory = logDirectory
    prefix = dataDirectory + "/chime.db"
  }

  /// The environment that loads the shim into chimed.
  public func environment() throws -> [String: String?] {
    try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
    return ["LD_PRELOAD": try Self.shim(), "CHIME_WRITECUT_DIR": logDirectory, "CHIME_WRITECUT_MATCH": prefix]
  }

  /// Whether the shim saw a tracked write since the last `revert()` (it was loaded and the paths
  /// matched).
  public var wasActive: Bool { FileManager.default.fileExists(atPath: logDirectory + "/active") }

  /// Takes back, per tracked file, every write since its last sync; then removes the `-shm`.
  /// Call only once the process is dead.
  public func revert() throws -> Reverted {
    var reverted = Reverted()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: logDirectory)) ?? []
    for name in names.sorted() where name.hasSuffix(".undo") {
      let log = try Data(contentsOf: URL(fileURLWithPath: logDirectory + "/" + name))
      let target = (prefix as NSString).deletingLastPathComponent + "/" + String(name.dropLast(".undo".count))
      let records = try Self.records(log, name: name)
      guard !records.isEmpty else { continue }
      let fd = open(target, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw CutError("cannot open \(target) to revert it: \(String(cString: strerror(errno)))") }
      defer { close(fd) }
      for record in records.reversed() {
        guard ftruncate(fd, off_t(record.sizeBefore)) == 0 else { throw CutError("ftruncate \(target): \(String(cString: strerror(errno)))") }
        let written = record.old.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(record.offset)) }
        guard written == record.old.count else { throw CutError("pwrite \(target): \(String(cString: strerror(errno)))") }
        reverted.bytesRestored += record.old.count
      }
      reverted.files += 1
      reverted.records += records.count
      try FileManager.default.removeItem(atPath: logDirectory + "/" + name)
    }
    unlink(prefix + "-shm")
    unlink(logDirectory + "/active")
    return reverted
  }

  public struct Record: Sendable {
    public var sizeBefore: UInt64
    public var offset: UInt64
    /// What the change overwrote (bytes past `sizeBefore` had nothing to keep).
    public var old: Data
  }

  /// Records: u64 size before, u64 offset, u64 length of the old bytes, the old bytes.
  ///
  /// The shim writes a record before the change it describes, so a log that ends inside a
  /// record (the SIGKILL came while it was being written) ends with a change that never
  /// happened: that tail is left out.
  public static func records(_ log: Data, name: String) throws -> [Record] {
    var records: [Record] = []
    var at = log.startIndex
    func word() -> UInt64 {
      var value: UInt64 = 0
      for i in 0..<8 { value |= UInt64(log[at + i]) << (8 * UInt64(i)) }
      at += 8
      return value
    }
    while log.endIndex - at >= 24 {
      let size = word(), offset = word(), length = word()
      guard log.endIndex - at >= Int(length) else { break }
      records.append(Record(sizeBefore: size, offset: offset, old: log.subdata(in: at..<at + Int(length))))
      at += Int(length)
    }
    return records
  }

  /// Builds the shim once per test process (the C compiler `cc`, as for the C client).
  public static func shim() throws -> String {
    try built.withLock { cached in
      if let path = cached { return path }
      let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/writecut/writecut.c").path
      let output = shimDirectory.file("writecut.so")
      let run = try ChildProcess.run("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-o", output, source, "-ldl"])
      guard run.status == 0 else { throw CutError("cc failed to build the write-cut shim: \(run.errors)") }
      cached = output
      return output
    }
  }

  /// A static is never deinitialized, so its directory is removed when the test process exits
  /// (each run left a /tmp/chime-writecut-* behind).
  private static let shimDirectory: TemporaryDirectory = {
    let directory = TemporaryDirectory(prefix: "chime-writecut")
    atexit { try? FileManager.default.removeItem(atPath: WriteCut.shimDirectory.path) }
    return directory
  }()
  private static let built = Locked<String?>(nil)
}

public struct CutError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
