import FoundationEssentials
import Glibc

extension DoctorChecks {
  /// The data directory: a directory chimed can write, or one it can create.
  func dataDirCheck(_ path: String) -> DoctorCheck {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      guard code == ENOENT else {
        // ENOTDIR: a component of the path is a file; EACCES: a directory on the way is closed.
        return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path): \(String(cString: strerror(code)))",
                           hint: "chimed cannot create or open it: point data-dir at a directory it can write")
      }
      return creatableCheck(path)
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is not a directory",
                         hint: "chimed refuses it (Not a directory): point data-dir at a directory, or move the file away")
    }
    guard access(path, W_OK) == 0 else {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is not writable: \(String(cString: strerror(errno)))",
                         hint: "chimed cannot store requests: fix the permissions or the mount (read-only?), or set data-dir")
    }
    var fs = statvfs()
    guard statvfs(path, &fs) == 0 else {
      return DoctorCheck(name: "data-dir", status: .warn, detail: "\(path): statvfs failed")
    }
    if fs.f_flag & UInt(ST_RDONLY) != 0 {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is on a read-only file system",
                         hint: "move data-dir to a writable file system")
    }
    let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
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
    var info = stat()
    repeat {
      ancestor = ancestor.parentPath
    } while ancestor != "/" && stat(ancestor, &info) != 0
    _ = stat(ancestor, &info)
    var fs = statvfs()
    if info.st_mode & S_IFMT != S_IFDIR {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) does not exist and \(ancestor) is not a directory",
                         hint: "chimed cannot create it: point data-dir at a directory it can write")
    }
    if access(ancestor, W_OK) != 0 || (statvfs(ancestor, &fs) == 0 && fs.f_flag & UInt(ST_RDONLY) != 0) {
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
