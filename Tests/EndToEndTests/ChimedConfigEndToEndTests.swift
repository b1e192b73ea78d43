import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The real chimed reading chimed.toml: an invalid file stops it with the key and line,
/// `--print-config` shows the merge, SIGHUP reloads what it can.
@Suite(.testTimeLimit) struct ChimedConfigEndToEndTests {
  static var chimed: String { DaemonProcess.binDirectory + "/chimed" }

  @Test func anInvalidFileStopsChimedWithTheKeyAndLine() throws {
    let dir = TemporaryDirectory()
    try "log-level = \"debug\"\nmissed-grace = \"soon\"\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let result = try ChildProcess.run(Self.chimed, ["--config", dir.file("chimed.toml"), "--socket", dir.socketPath,
                                                    "--data-dir", dir.file("data")])
    #expect(result.status == 78)
    #expect(result.errors.contains("\(dir.file("chimed.toml")):2: missed-grace: expected a number of seconds, got string"),
            "\(result.errors)")
    #expect(!FileManager.default.fileExists(atPath: dir.socketPath))

    try "log-level = \"debug\"\nmised-grace = 3\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let unknown = try ChildProcess.run(Self.chimed, ["--config", dir.file("chimed.toml"), "--print-config"])
    #expect(unknown.status == 78)
    #expect(unknown.errors.contains(":2: mised-grace: unknown key"), "\(unknown.errors)")

    let missing = try ChildProcess.run(Self.chimed, ["--config", dir.file("absent.toml"), "--print-config"])
    #expect(missing.status == 78)
    #expect(missing.errors.contains("absent.toml: cannot read"), "\(missing.errors)")
  }

  /// A path setting is `~/...` (expanded with HOME) or absolute: `data-dir = "~/chime-data"`
  /// once made `<cwd>/~/chime-data`. A relative one stops chimed with 78 naming the key, before
  /// anything is made in its working directory.
  @Test func pathSettingsExpandTildeAndRefuseRelativePaths() throws {
    let dir = TemporaryDirectory()
    let home = dir.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try "data-dir = \"~/chime-data\"\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let printed = try ChildProcess.run(Self.chimed, ["--config", dir.file("chimed.toml"), "--print-config"],
                                       environment: ["HOME": home], directory: dir.path)
    #expect(printed.status == 0, "\(printed.errors)")
    #expect(printed.output.contains("data-dir = \"\(home)/chime-data\"  # file:1"), "\(printed.output)")

    for (arguments, says) in [(["--data-dir=~bob/data"], "--data-dir: \"~bob/data\": ~name/"),
                              (["--data-dir", "relative/data"], "--data-dir: \"relative/data\" is not an absolute path"),
                              (["--socket", "chimed.sock", "--data-dir", dir.file("data")], "--socket: \"chimed.sock\" is not an absolute path")] {
      let run = try ChildProcess.run(Self.chimed, ["--config", "/dev/null"] + arguments, environment: ["HOME": home], directory: dir.path)
      #expect(run.status == 78, "\(arguments): \(run.errors)")
      #expect(run.errors.contains(says), "\(arguments): \(run.errors)")
    }
    let made = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(made == ["chimed.toml", "home"], "nothing made relative to the working directory: \(made)")
  }

  /// chimed's own command line: usage errors exit 64 with the message and the usage lines on
  /// stderr, nothing on stdout; `--help` and `--version` print on stdout and exit 0.
  @Test func usageErrorsExit64AndHelpPrints() throws {
    let dir = TemporaryDirectory()
    let elsewhere = ["--config", "/dev/null", "--socket", dir.socketPath, "--data-dir", dir.file("data")]
    for (arguments, message) in [(["--bogus"], "Error: Unknown option '--bogus'\n"),
                                 (["--socket"], "Error: Missing value for '--socket <socket>'\nHelp:  --socket <socket>  Unix socket path"),
                                 (["--print-config=yes"], "Error: The option '--print-config' does not take any value, but 'yes' was specified.\n"),
                                 (["--thumbnail-timeout", "0"] + elsewhere, "Error: --thumbnail-timeout must be more than 0\n")] {
      let run = try ChildProcess.run(Self.chimed, arguments)
      #expect(run.status == 64, "\(arguments): \(run.status)")
      #expect(run.errors.hasPrefix(message) && run.errors.hasSuffix("Usage: chimed <options>\n  See 'chimed --help' for more information.\n"),
              "\(arguments): \(run.errors)")
      #expect(run.output.isEmpty)
    }
    let help = try ChildProcess.run(Self.chimed, ["--help"])
    #expect(help.status == 0 && help.output.hasPrefix("OVERVIEW: The Chime notification scheduler daemon.\n"), "\(help.errors)")
    #expect(help.output.contains("\n  --missed-grace <missed-grace>\n") && !help.output.contains("--clock-offset"))
    let version = try ChildProcess.run(Self.chimed, ["--version"])
    #expect(version.status == 0 && version.output.hasPrefix("0.") && version.output.hasSuffix("\n"), "\(version.output)")
  }

  /// `chimed --compact-store` refuses a store the running chimed has open (exit 75, which says
  /// to try again later), rebuilds it once chimed is stopped, and the next chimed finds
  /// everything.
  @Test func compactStoreWaitsForChimedToStopAndKeepsTheStore() throws {
    let dir = TemporaryDirectory()
    var daemon = DaemonProcess(directory: dir)
    try daemon.start()
    for name in ["a", "b", "c"] {
      let added = try ChimeCLI.run(["add", name, "--title", name.uppercased(), "--in", "1h"], socket: daemon.socketPath, app: "org.example.compact")
      #expect(added.status == 0, "\(added.stderr)")
    }
    let busy = try ChildProcess.run(Self.chimed, ["--data-dir", daemon.dataDirectory, "--compact-store"])
    #expect(busy.status == 75)
    #expect(busy.errors.contains("is in use (is chimed running?)"), "\(busy.errors)")
    #expect(daemon.terminate() == 0)

    let compacted = try ChildProcess.run(Self.chimed, ["--data-dir", daemon.dataDirectory, "--compact-store"])
    #expect(compacted.status == 0, "\(compacted.errors)")
    #expect(compacted.output.contains("chimed: compacted \(daemon.dataDirectory)/chime.db: "), "\(compacted.output)")
    #expect(compacted.output.contains("pages of 2048 -> 2048 bytes"), "\(compacted.output)")

    daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let pending = try ChimeCLI.run(["pending"], socket: daemon.socketPath, app: "org.example.compact")
    for name in ["a", "b", "c"] { #expect(pending.stdout.contains(name.uppercased()), "\(pending.stdout)") }
  }

  @Test func printConfigShowsEachValueAndWhereItCameFrom() throws {
    let dir = TemporaryDirectory()
    try "# mine\nmissed-grace = 4.5\nattachment-quota = \"2GB\"\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let result = try ChildProcess.run(Self.chimed, ["--config", dir.file("chimed.toml"), "--print-config", "--log-level", "warning",
                                                     "--max-subscribers", "7"],
                                      environment: ["CHIME_SOCKET": dir.socketPath])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("missed-grace = 4.5  # file:2\n"), "\(result.output)")
    #expect(result.output.contains("attachment-quota = \"2GB\"  # file:3\n"))
    #expect(result.output.contains("log-level = \"warning\"  # flag"))
    #expect(result.output.contains("socket = \"\(dir.socketPath)\"  # env CHIME_SOCKET\n"))
    #expect(result.output.contains("max-frame-bytes = 1048576  # default\n"))
    #expect(result.output.contains("max-subscribers = 7  # flag\n"), "\(result.output)")
    #expect(result.output.contains("max-subscribers-per-app = 1024  # default\n"), "\(result.output)")
    #expect(!FileManager.default.fileExists(atPath: dir.socketPath))

    // The default file is $XDG_CONFIG_HOME/chime/chimed.toml.
    try FileManager.default.createDirectory(atPath: dir.file("config/chime"), withIntermediateDirectories: true)
    try "present-timeout = 3\n".write(toFile: dir.file("config/chime/chimed.toml"), atomically: true, encoding: .utf8)
    let byDefault = try ChildProcess.run(Self.chimed, ["--print-config"], environment: ["XDG_CONFIG_HOME": dir.file("config")])
    #expect(byDefault.status == 0, "\(byDefault.errors)")
    #expect(byDefault.output.contains("present-timeout = 3  # file:1\n"), "\(byDefault.output)")
  }

  @Test func sighupReloadsTheLogLevelAndKeepsTheRunningConfigOnABadFile() throws {
    let dir = TemporaryDirectory()
    let config = dir.file("chimed.toml")
    try "log-level = \"info\"\nmissed-grace = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
    let daemon = try SpawnedProcess(Self.chimed, ["--config", config, "--socket", dir.socketPath, "--data-dir", dir.file("data")],
                                    environment: SpawnedProcess.environment(["CHIME_SOCKET": nil]),
                                    stdout: dir.file("out"), stderr: dir.file("log"))
    defer { daemon.signal(SIGTERM); _ = daemon.waitForExit() }
    func log() -> String { (try? String(contentsOfFile: dir.file("log"), encoding: .utf8)) ?? "" }
    func out() -> String { (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "" }
    try #require(pollUntil(within: 30) { out().contains("listening") })
    // At info, a client's connection logs nothing at debug.
    let before = try ChimeCLI.run(["pending", "--json"], socket: dir.socketPath, app: "org.example.reload")
    #expect(before.status == 0, "\(before.stderr)")
    #expect(!log().contains("connection closed"), "\(log())")

    try "log-level = \"debug\"\nmissed-grace = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(pollUntil(within: 10) { log().contains("configuration reloaded: log-level: info → debug") }, "\(log())")
    #expect(log().contains("applied only on restart: missed-grace"), "\(log())")
    // Now at debug, the same call shows in the log.
    let after = try ChimeCLI.run(["pending", "--json"], socket: dir.socketPath, app: "org.example.reload")
    #expect(after.status == 0, "\(after.stderr)")
    #expect(pollUntil(within: 10) { log().contains("connection closed") }, "\(log())")

    try "log-level = \"debug\"\nmissed-grace = [1]\n".write(toFile: config, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(pollUntil(within: 10) { log().contains("configuration not reloaded") }, "\(log())")
    #expect(log().contains("\(config):2: missed-grace: expected a number of seconds, got array"), "\(log())")
    #expect(daemon.isRunning)
    let still = try ChimeCLI.run(["pending", "--json"], socket: dir.socketPath, app: "org.example.reload")
    #expect(still.status == 0, "\(still.stderr)")
  }
}
