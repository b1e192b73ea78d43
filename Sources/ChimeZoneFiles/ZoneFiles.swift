import Glibc

/// Reads one zone's TZif file whole, for ChimeCore's `ZoneDirectory`: the domain looks zones up
/// by name wherever a request names one, and this module (open(2), fstat(2), read(2)) is the
/// system call it makes for that, so ChimeCore itself stays free of them.
public enum ZoneFiles {
  /// The bytes of the regular file at `path` (symlinks followed), or nil when there is none,
  /// it is not a regular file, or it cannot be read.
  public static func contents(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(st.st_size))
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes += chunk[0..<n]
      } else if n == 0 {
        return bytes
      } else if errno != EINTR {
        return nil
      }
    }
  }
}
