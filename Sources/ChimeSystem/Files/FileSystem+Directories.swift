import Glibc

extension FileSystem {
  /// The names in directory `path` (a symlink to one is followed), without `.` and `..`, in
  /// the order the file system gives them.
  ///
  /// - Throws: the `Errno` of `opendir(3)` or `readdir(3)` (`.noSuchFile`, `ENOTDIR`, ...).
  public static func directoryEntries(_ path: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw .current }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw .current }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }
}
