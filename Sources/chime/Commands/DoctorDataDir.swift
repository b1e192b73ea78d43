import ChimeSystem
import FoundationEssentials

extension DoctorChecks {
  /// The data directory: a directory chimed can write, or one it can create.
  func dataDirCheck(_ path: String) -> DoctorCheck {
    let info: FileStatus
    do throws(Errno) {
      info = try FileSystem.statusOrError(path)
    } catch {
      guard error == .noSuchFile else {
        // ENOTDIR: a component of the path is a file; EACCES: a directory on the way is closed.
        return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path): \(error)",
                           hint: "chimed cannot create or open it: point data-dir at a directory it can write")
      }
      return creatableCheck(path)
    }
    guard info.isDirectory else {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is not a directory",
                         hint: "chimed refuses it (Not a directory): point data-dir at a directory, or move the file away")
    }
    if let why = FileSystem.whyNotWritable(path) {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is not writable: \(why)",
                         hint: "chimed cannot store requests: fix the permissions or the mount (read-only?), or set data-dir")
    }
    guard let volume = FileSystem.volume(of: path) else {
      return DoctorCheck(name: "data-dir", status: .warn, detail: "\(path): statvfs failed")
    }
    if volume.isReadOnly {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is on a read-only file system",
                         hint: "move data-dir to a writable file system")
    }
    let free = volume.availableBytes
    let text = "\(path) writable, \(free / 1_000_000) MB free"
    if free < 50_000_000 {
      return DoctorCheck(name: "data-dir", status: .warn, detail: text, hint: "less than 50 MB free: adds will fail when the disk is full")
    }
    return DoctorCheck(name: "data-dir", status: .ok, detail: text)
  }

  /// A data directory not there yet: chimed creates it (and its parents) on start, which it can
  /// only where the nearest existing ancestor is a directory it can write.
  private func creatableCheck(_ path: String) -> DoctorCheck {
    var ancestor = path
    repeat {
      ancestor = ancestor.parentPath
    } while ancestor != "/" && FileSystem.status(ancestor) == nil
    if FileSystem.status(ancestor)?.isDirectory != true {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) does not exist and \(ancestor) is not a directory",
                         hint: "chimed cannot create it: point data-dir at a directory it can write")
    }
    if FileSystem.whyNotWritable(ancestor) != nil || FileSystem.volume(of: ancestor)?.isReadOnly == true {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) does not exist and \(ancestor) is not writable",
                         hint: "chimed cannot create it: point data-dir at a directory it can write, or create it yourself")
    }
    return DoctorCheck(name: "data-dir", status: .warn, detail: "\(path) does not exist yet", hint: "chimed creates it on start")
  }

  /// chime.db: readable, whole, of the current schema. `dataDir` is the data-dir check of the
  /// same run: a missing store is not "created on start" in a directory chimed cannot use.
  func databaseCheck(_ path: String, dataDir: DoctorCheck) -> DoctorCheck {
    guard FileManager.default.fileExists(atPath: path) else {
      guard dataDir.status != .fail else {
        return DoctorCheck(name: "database", status: .fail, detail: "\(path) does not exist",
                           hint: "chimed cannot create it until the data-dir failure above is fixed")
      }
      return DoctorCheck(name: "database", status: .warn, detail: "\(path) does not exist yet", hint: "chimed creates it on start")
    }
    let report: DoctorDatabase.Report
    do throws(DoctorDatabase.Failure) {
      report = try DoctorDatabase.inspect(path: path)
    } catch {
      return DoctorCheck(name: "database", status: .fail, detail: "\(path): \(error)", hint: "check the file's permissions")
    }
    guard report.integrity == ["ok"] else {
      return DoctorCheck(name: "database", status: .fail, detail: "integrity_check: \(report.integrity.prefix(3).joined(separator: "; "))",
                         hint: "stop chimed and restore \(path) from a backup")
    }
    let detail = "\(path): integrity ok, schema \(report.migrations.count) migrations (last \"\(report.migrations.last ?? "none")\")"
    guard report.pageSize <= DoctorDatabase.currentPageSize else {
      return DoctorCheck(name: "database", status: .warn,
                         detail: detail + ", \(report.pageSize)-byte pages (a new store has \(DoctorDatabase.currentPageSize))",
                         hint: "stop chimed, run `chimed --compact-store`, start it again: each lone add's commit then syncs half the bytes")
    }
    return DoctorCheck(name: "database", status: .ok, detail: detail)
  }
}

extension String {
  /// The path without its last component (`/` for a top-level one).
  fileprivate var parentPath: String {
    var trimmed = Substring(self)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }
}
