import ChimeSystem
import ChimeCore
import Glibc
internal import CSQLite

/// An SQLite VFS over the default "unix" one that gathers a transaction's writes to the WAL
/// file into one `pwrite`, made just before the commit's fsync.
///
/// SQLite writes each WAL frame as two writes: its 24-byte header, then the 4 KiB page, at
/// offsets that straddle page-cache pages: an add's commit makes sixteen or more `pwrite` calls
/// before its `fdatasync`, and one `pwrite` of the same bytes costs a fraction of their time
/// (bench/NOTES.md). No SQLite setting does this, so this shim does,
/// written here by hand (about 250 lines; SQLite's own shims, like vfstrace, are C).
///
/// Writes to a WAL file that continue the bytes already gathered are kept in memory; anything
/// that could look at the file — a read, a sync, its size, a truncation, a file control, a
/// write somewhere else, closing it — first writes what was gathered, at its offset, in one
/// call. Before any connection publishes or reads the WAL index (`xShmBarrier`, `xShmLock` on
/// any database file), every WAL file's gathered bytes are written too, so no connection can
/// see a frame in the index before it is in the file, whatever the `synchronous` setting. A
/// write that fails there is kept and returned by the file's next call. Every other file, and
/// every other call, goes straight to "unix".
///
/// It is registered under its own name, not as the process's default: only connections opened
/// through `openPath(_:)` (the store's writer and readers) use it; any other connection in the
/// process gets SQLite's "unix" and sees the store's commits as usual (the frames are in the
/// file before the commit's sync and before the WAL index is published).
enum WALWriteBuffer {
  static let name = "chime-unix-walbuf"

  /// Registers the VFS the first time it is called; true when it is (false when SQLite has no
  /// "unix" VFS to wrap).
  @discardableResult
  static func installOnce() -> Bool { installed }

  /// What to open `path` as so the connection uses this VFS: an SQLite URI naming it (SQLite is
  /// built with URI filenames on, as Debian's is), or `path` itself when the VFS is not there.
  static func openPath(_ path: String) -> String {
    guard installOnce() else { return path }
    // In a URI path only unreserved characters and "/" stand for themselves.
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
    var encoded = ""
    for byte in path.utf8 {
      if unreserved.contains(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += byte < 16 ? "%0" + hex : "%" + hex
      }
    }
    return "file:" + encoded + "?vfs=" + name
  }

  private static let installed: Bool = {
    SQLiteProcess.configure()
    guard let unix = sqlite3_vfs_find("unix") else { return false }
    let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    vfs.initialize(to: unix.pointee)
    vfs.pointee.szOsFile = Int32(FileSlot.headerSize) + unix.pointee.szOsFile
    vfs.pointee.zName = UnsafePointer(strdup(name))
    vfs.pointee.pNext = nil
    vfs.pointee.xOpen = { vfs, name, file, flags, outFlags in
      guard let file, let unix = sqlite3_vfs_find("unix") else { return SQLITE_ERROR }
      let slot = FileSlot(file)
      slot.initState(nil)
      let rc = unix.pointee.xOpen(unix, name, slot.real, flags, outFlags)
      guard rc == SQLITE_OK, slot.real.pointee.pMethods != nil else {
        // SQLite calls no method of a file whose pMethods is nil.
        file.pointee.pMethods = nil
        return rc
      }
      if flags & SQLITE_OPEN_WAL != 0 { slot.initState(WALFile(real: slot.real, path: name.map { String(cString: $0) } ?? "")) }
      file.pointee.pMethods = UnsafePointer(methods)
      return rc
    }
    return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
  }()

  /// Writes made to each WAL file (by path), for the tests: one per piece.
  static let writesMade = Locked<[String: Int]>([:])

  /// Every WAL file with bytes gathered and not yet written.
  fileprivate static let gathering = Locked<[ObjectIdentifier: WALFile]>([:])

  /// Writes every WAL file's gathered bytes (before the WAL index is published or read).
  fileprivate static func flushAll() {
    let files = gathering.withLock { $0.isEmpty ? [] : Array($0.values) }
    for file in files { file.flushKeepingFailure() }
  }

  /// Written once, before any file uses it; read only after.
  nonisolated(unsafe) private static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
    let m = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    m.initialize(to: sqlite3_io_methods())
    m.pointee.iVersion = 3
    m.pointee.xClose = { file in
      let slot = FileSlot(file!)
      var rc = slot.wal?.flush() ?? SQLITE_OK
      let closed = slot.forward { $1.xClose($0) }
      if rc == SQLITE_OK { rc = closed }
      slot.clearState()
      return rc
    }
    m.pointee.xRead = { file, buffer, amount, offset in
      FileSlot(file!).afterFlush { $1.xRead($0, buffer, amount, offset) }
    }
    m.pointee.xWrite = { file, buffer, amount, offset in
      let slot = FileSlot(file!)
      if let wal = slot.wal { return wal.write(buffer!, count: Int(amount), at: offset) }
      return slot.forward { $1.xWrite($0, buffer, amount, offset) }
    }
    m.pointee.xTruncate = { file, size in FileSlot(file!).afterFlush { $1.xTruncate($0, size) } }
    m.pointee.xSync = { file, flags in FileSlot(file!).afterFlush { $1.xSync($0, flags) } }
    m.pointee.xFileSize = { file, size in FileSlot(file!).afterFlush { $1.xFileSize($0, size) } }
    m.pointee.xLock = { file, level in FileSlot(file!).forward { $1.xLock($0, level) } }
    m.pointee.xUnlock = { file, level in FileSlot(file!).forward { $1.xUnlock($0, level) } }
    m.pointee.xCheckReservedLock = { file, out in FileSlot(file!).forward { $1.xCheckReservedLock($0, out) } }
    m.pointee.xFileControl = { file, op, argument in FileSlot(file!).afterFlush { $1.xFileControl($0, op, argument) } }
    m.pointee.xSectorSize = { file in FileSlot(file!).forward { $1.xSectorSize($0) } }
    m.pointee.xDeviceCharacteristics = { file in FileSlot(file!).forward { $1.xDeviceCharacteristics($0) } }
    m.pointee.xShmMap = { file, page, pageSize, extend, out in
      FileSlot(file!).forward { real, methods in methods.xShmMap.map { $0(real, page, pageSize, extend, out) } ?? SQLITE_IOERR }
    }
    m.pointee.xShmLock = { file, offset, count, flags in
      WALWriteBuffer.flushAll()
      return FileSlot(file!).forward { real, methods in methods.xShmLock.map { $0(real, offset, count, flags) } ?? SQLITE_IOERR }
    }
    m.pointee.xShmBarrier = { file in
      WALWriteBuffer.flushAll()
      _ = FileSlot(file!).forward { real, methods in
        methods.xShmBarrier?(real)
        return SQLITE_OK
      }
    }
    m.pointee.xShmUnmap = { file, delete in
      FileSlot(file!).forward { real, methods in methods.xShmUnmap.map { $0(real, delete) } ?? SQLITE_OK }
    }
    m.pointee.xFetch = { file, offset, amount, out in
      FileSlot(file!).afterFlush { real, methods in
        guard let fetch = methods.xFetch else {
          out?.pointee = nil
          return SQLITE_OK
        }
        return fetch(real, offset, amount, out)
      }
    }
    m.pointee.xUnfetch = { file, offset, pointer in
      FileSlot(file!).forward { real, methods in methods.xUnfetch.map { $0(real, offset, pointer) } ?? SQLITE_OK }
    }
    return m
  }()
}

/// The memory SQLite gives each open file (`szOsFile` bytes): SQLite's `sqlite3_file` header
/// (our methods), a reference to the WAL state (nil for other files), then the "unix" VFS's
/// own file object.
private struct FileSlot {
  static let headerSize = 16

  let base: UnsafeMutableRawPointer

  init(_ file: UnsafeMutablePointer<sqlite3_file>) { base = UnsafeMutableRawPointer(file) }

  var real: UnsafeMutablePointer<sqlite3_file> {
    (base + Self.headerSize).assumingMemoryBound(to: sqlite3_file.self)
  }

  /// `body` with the "unix" file and its methods.
  func forward(_ body: (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) -> Int32) -> Int32 {
    body(real, real.pointee.pMethods.pointee)
  }

  /// `body` with the "unix" file and its methods, once a WAL file's gathered bytes are
  /// written (their error, if that failed).
  func afterFlush(_ body: (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) -> Int32) -> Int32 {
    if let rc = wal?.flush(), rc != SQLITE_OK { return rc }
    return forward(body)
  }

  var wal: WALFile? {
    guard let raw = (base + 8).load(as: UnsafeRawPointer?.self) else { return nil }
    return Unmanaged<WALFile>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Stores `state` (retained) in a slot whose memory is new (what was there is not read).
  func initState(_ state: WALFile?) {
    (base + 8).storeBytes(of: state.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) }, as: UnsafeRawPointer?.self)
  }

  /// Releases the state stored by `initState`, if any.
  func clearState() {
    if let raw = (base + 8).load(as: UnsafeRawPointer?.self) { Unmanaged<WALFile>.fromOpaque(raw).release() }
    (base + 8).storeBytes(of: nil, as: UnsafeRawPointer?.self)
  }
}

/// One open WAL file: the bytes gathered since the last write, from `start` on.
private final class WALFile: @unchecked Sendable {
  private struct Gathered {
    var start: Int64 = 0
    var bytes: UnsafeMutableRawPointer?
    var count = 0
    var capacity = 0
    /// A write that failed where no caller could be told (at a barrier): the next call's answer.
    var failed: Int32 = SQLITE_OK
  }

  /// Gathered bytes past this are written at once (a transaction that spills its cache).
  static let limit = 4 << 20
  /// A buffer grown past this is given back after it is written.
  static let keptCapacity = 256 << 10

  let real: UnsafeMutablePointer<sqlite3_file>
  let path: String
  private let gathered = Locked(Gathered())

  init(real: UnsafeMutablePointer<sqlite3_file>, path: String) {
    self.real = real
    self.path = path
  }

  deinit {
    gathered.withLock { free($0.bytes) }
  }

  func write(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) -> Int32 {
    gathered.withLock { g -> Int32 in
      if g.failed != SQLITE_OK { return g.failed }
      if g.count > 0, offset != g.start + Int64(g.count) || g.count + count > Self.limit {
        let rc = writeOut(&g)
        if rc != SQLITE_OK { return rc }
      }
      if g.count == 0 {
        g.start = offset
        WALWriteBuffer.gathering.withLock { $0[ObjectIdentifier(self)] = self }
      }
      if g.count + count > g.capacity {
        let capacity = max(g.capacity * 2, g.count + count, 64 << 10)
        guard let grown = realloc(g.bytes, capacity) else { return SQLITE_NOMEM }
        g.bytes = grown
        g.capacity = capacity
      }
      (g.bytes! + g.count).copyMemory(from: buffer, byteCount: count)
      g.count += count
      return SQLITE_OK
    }
  }

  /// Writes what was gathered; SQLITE_OK, or the error of the write (then or earlier).
  func flush() -> Int32 {
    gathered.withLock { g in
      if g.failed != SQLITE_OK {
        let failed = g.failed
        g.failed = SQLITE_OK
        return failed
      }
      return writeOut(&g)
    }
  }

  /// The most one call to "unix"'s xWrite takes: it masks a write's length to 17 bits (a
  /// 160 KiB write came back short, and SQLite called it SQLITE_FULL).
  static let piece = 0x1F000

  private func writeOut(_ g: inout Gathered) -> Int32 {
    guard g.count > 0 else { return SQLITE_OK }
    var rc = SQLITE_OK
    var done = 0
    while done < g.count, rc == SQLITE_OK {
      let n = min(Self.piece, g.count - done)
      rc = real.pointee.pMethods.pointee.xWrite(real, g.bytes! + done, Int32(n), g.start + Int64(done))
      done += n
      WALWriteBuffer.writesMade.withLock { $0[path, default: 0] += 1 }
    }
    g.count = 0
    WALWriteBuffer.gathering.withLock { $0[ObjectIdentifier(self)] = nil }
    if g.capacity > Self.keptCapacity {
      free(g.bytes)
      g.bytes = nil
      g.capacity = 0
    }
    return rc
  }

  /// For a barrier: a failure is kept for the file's next call.
  func flushKeepingFailure() {
    gathered.withLock { g in
      let rc = writeOut(&g)
      if rc != SQLITE_OK, g.failed == SQLITE_OK { g.failed = rc }
    }
  }
}
