import ChimeSystem

/// Where `chime` finds a program it runs (chime-calendar, the Center's launcher): beside its
/// own executable (a build directory), else in the libexec directory beside its `bin`
/// (`make install`), as chime-thumbnail is found.
enum HelperProgram {
  /// The first candidate that is a regular file someone may execute.
  static func locate(_ name: String) -> String? {
    candidates(name).first { path in FileSystem.status(path).map { $0.kind == .regular && $0.permissions & 0o111 != 0 } ?? false }
  }

  static func candidates(_ name: String) -> [String] {
    guard let executable = FileSystem.realPath("/proc/self/exe") else { return [] }
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return [directory + "/" + name, directory + "/" + ThumbnailHelper.libexecRelative + "/" + name]
  }
}
