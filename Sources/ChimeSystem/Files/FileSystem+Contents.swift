import Glibc

extension FileSystem {
  /// The whole of a small file, symlinks followed (a configuration file may be a link into a
  /// dotfiles repository).
  ///
  /// - Throws: the `Errno` of `open(2)` (`.noSuchFile` when nothing is there) or `read(2)`.
  public static func contents(_ path: String) throws(Errno) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .current }
    let file = FileDescriptor(rawValue: fd)
    defer { file.close() }
    return try file.readToEnd()
  }
}
