internal import Glibc

extension Subprocess {
  /// Replaces this process with `argv[0]` (a path) run with `argv` and this process's
  /// environment, as a launcher does (`chime center`). Returns only when exec failed, with why.
  public static func replace(with argv: [String]) -> Errno {
    let cArgv = argv.map { strdup($0) } + [nil]
    defer { for p in cArgv { free(p) } }
    execv(argv.first ?? "", cArgv)
    return Errno.current
  }
}
