import ArgumentParser
import ChimeSystem

/// `chime center`: opens Chime Center, the desktop app for everything below without a terminal.
struct Center: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "center",
    abstract: "Open Chime Center: scheduled and delivered notifications, apps' settings, Do Not Disturb, calendars.",
    discussion: """
      Chime Center is a GTK 4 + libadwaita app (Debian: python3-gi, gir1.2-gtk-4.0, gir1.2-adw-1) \
      that talks to chimed over its D-Bus API, starting chimed when it is not running. `make \
      install` installs it with a .desktop file, so it is also in the applications menu. \
      --json opens nothing: it prints where the Center is ({"center": PATH or null, "looked_in": \
      [...]}) and exits 1 when it is not installed.
      """)

  @Flag(help: "Print where Chime Center is installed instead of opening it.") var json = false

  func run() throws {
    if json {
      let found = CenterHelper.locate()
      JSONOutput.print(["center": found.map { $0 as Any } ?? JSONValue.Null(), "looked_in": CenterHelper.candidates()])
      if found == nil { throw ExitCode(1) }
      return
    }
    guard let center = CenterHelper.locate() else {
      printError("chime: Chime Center is not installed (looked for \(CenterHelper.candidates().joined(separator: ", "))); `make install` installs it")
      throw ExitCode(1)
    }
    let failure = Subprocess.replace(with: [center])
    printError("chime: could not start \(center): \(failure)")
    throw ExitCode(1)
  }
}

/// The Center's launcher: beside this executable, else in the libexec directory beside its
/// `bin` (`make install`), as chime-calendar and chime-thumbnail are found.
enum CenterHelper {
  static let name = "chime-center"

  static func locate() -> String? {
    candidates().first { path in FileSystem.status(path).map { $0.kind == .regular && $0.permissions & 0o111 != 0 } ?? false }
  }

  static func candidates() -> [String] {
    guard let executable = FileSystem.realPath("/proc/self/exe") else { return [] }
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return [directory + "/" + name, directory + "/" + ThumbnailHelper.libexecRelative + "/" + name]
  }
}
