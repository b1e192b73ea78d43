import Glibc

/// Reads a whole (small) file, following symlinks: chimed.toml may be a link into a dotfiles
/// repository.
enum TextFile {
  /// Why a file could not be read, as the system says it.
  enum Failure: Error, CustomStringConvertible {
    case missing
    case failed(Int32)

    var description: String {
      switch self {
      case .missing: return String(cString: strerror(ENOENT))
      case .failed(let code): return String(cString: strerror(code))
      }
    }
  }

  static func read(_ path: String) -> Result<[UInt8], Failure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .failure(errno == ENOENT ? .missing : .failed(errno)) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count == 0 { return .success(bytes) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(.failed(errno))
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}
