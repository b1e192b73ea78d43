import Glibc

/// Writes an executable stub script for a test. Opened close-on-exec: a child another test
/// spawns meanwhile must not inherit the write descriptor, or executing the script fails with
/// ETXTBSY for as long as that child lives (Foundation's file writing does not set it).
public enum ExecutableScript {
  /// `#!/bin/sh`, then `body`, at `path`, mode 0755.
  public static func write(_ body: String, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    precondition(fd >= 0, "open \(path): \(String(cString: strerror(errno)))")
    let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
    let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "write \(path)")
    close(fd)
    chmod(path, 0o755)
  }
}
