import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Issue 27's rough edges of the CLI, through the real binary against the real daemon: help a
/// user can paste from, JSON empty arrays, refusals in the documented form, what `watch
/// --count` counts, the warning `authorize` owes, and pushed alerts that carry only
/// localization keys.
@Suite(.serialized) struct CLIRoughEdgeTests {
  static let app = "org.example.rough"

  func chime(_ arguments: [String], socket: String = "/nonexistent/chimed.sock", app: String = Self.app) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: app)
  }

  /// `chime ARGUMENTS --help` as an 80-column terminal shows it.
  func help(_ path: [String]) throws -> String {
    let run = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", path + ["--help"], environment: ["COLUMNS": "80"], timeout: 60)
    #expect(run.status == 0, "\(path): \(run.errors)")
    return run.output
  }

  /// Every command path under `path`, from the SUBCOMMANDS sections of the help.
  func commandPaths(under path: [String] = []) throws -> [[String]] {
    let text = try help(path)
    guard path.count < 3, let section = text.range(of: "\nSUBCOMMANDS:\n") else { return [path] }
    var paths = [path]
    // The section's lines up to the first blank one: a subcommand's line is indented two
    // spaces, its wrapped abstract much more.
    for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty { break }
      guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
            name.allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
      paths += try commandPaths(under: path + [String(name)])
    }
    return paths
  }

  @Test func helpExamplesAreWholeCommandsAt80Columns() throws {
    let paths = try commandPaths()
    #expect(paths.count > 20, "\(paths)")
    var examples = 0
    for path in paths {
      let lines = try help(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      guard var index = lines.firstIndex(of: "Examples:") else { continue }
      index += 1
      var continued = false
      while index < lines.count, !lines[index].hasPrefix("USAGE:") {
        let line = lines[index]
        index += 1
        guard !line.isEmpty, line.hasPrefix("  ") else {
          continued = false
          continue
        }
        // A command begins at two spaces; a line further in continues one that ended in ` \`.
        if line.hasPrefix("    ") {
          #expect(continued, "chime \(path.joined(separator: " ")) --help: a command is wrapped before \"\(line)\"")
        } else {
          #expect(line.dropFirst(2).hasPrefix("chime ") || line.dropFirst(2).hasPrefix("echo "),
                  "chime \(path.joined(separator: " ")) --help: \"\(line)\" is not a command")
          examples += 1
        }
        #expect(line.count <= 80, "chime \(path.joined(separator: " ")) --help: \"\(line)\" is over 80 columns")
        continued = line.hasSuffix(" \\")
      }
    }
    #expect(examples > 30)
  }

  @Test func onlyTheRootListsVersionAndAuthorizeDescribesEveryOption() throws {
    #expect(try help([]).contains("--version"))
    let version = try chime(["--version"])
    #expect(version.status == 0 && version.stdout.first?.isNumber == true, "\(version.stdout)")
    for path in try commandPaths().filter({ !$0.isEmpty }) {
      #expect(!(try help(path)).contains("--version"), "chime \(path.joined(separator: " ")) --help lists --version")
    }
    let authorize = try help(["authorize"])
    let options = authorize[authorize.range(of: "OPTIONS:")!.upperBound...].split(separator: "\n")
    for line in options where line.hasPrefix("  --") {
      // An option and its description on one line, or the description on the next.
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      let next = options.firstIndex(of: line).map { options.index(after: $0) }.flatMap { $0 < options.endIndex ? options[$0] : nil }
      #expect(words.count > 1 || next?.hasPrefix("                ") == true, "undescribed: \(line)")
    }
    #expect(authorize.contains("--alert --sound --critical-alert"))
  }

  /// Option values are read whole or refused before anything is sent (exit 64).
  @Test func optionValuesAreTakenWholeOrRefused() throws {
    let calendar = try chime(["add", "wd", "--title", "Work", "--calendar", "weekday=mon,wdd,hour=9", "--repeats"])
    #expect(calendar.status == 64)
    #expect(calendar.stderr.contains("INVALID_CALENDAR_SPEC"), "\(calendar.stderr)")
    #expect(calendar.stderr.contains("mon+wed+fri"), "\(calendar.stderr)")
    let json = try chime(["next", "--calendar", "weekday=monxyz", "--json"])
    #expect(json.status == 64)
    #expect((json.object?["message"] as? String)?.contains("mon, tue, wed, thu, fri, sat, sun") == true, "\(json.stdout)")
    let named = try chime(["next", "--calendar", "weekday=Monday,hour=9", "--repeats", "--count", "1", "--json"])
    #expect(named.status == 0, "\(named.stderr)")
    for arguments in [["add", "x", "--title", "X", "--level", "a-c-t-i-v-e"], ["add", "x", "--title", "X", "--level", "activex"],
                      ["add", "x", "--title", "X", "--in", "0x10s"], ["add", "x", "--title", "X", "--in", "1e3s"],
                      ["pending", "--timeout", "0x10"], ["next", "--in", "1e2s"],
                      ["next", "--calendar", "hour=9", "--after", "2026-11-24T09:30:00+01:"],
                      ["attachment", "thumbnail", "x.png", "--box", "300xx169", "-o", "/nonexistent/t.png"]] {
      let run = try chime(arguments)
      #expect(run.status == 64 || (arguments[0] == "attachment" && run.status == 1), "\(arguments): \(run.status) \(run.stderr)")
      if arguments[0] == "attachment" { #expect(run.stderr.contains("INVALID_THUMBNAIL_BOX"), "\(run.stderr)") }
    }
    let bare = try chime(["add", "x", "--title", "X", "--in", "nan"])
    #expect(bare.status == 64 && !bare.stderr.contains("needs a unit"), "\(bare.stderr)")
  }

  @Test func emptyArraysPrintAsBrackets() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let pending = try chime(["pending", "--json"], socket: daemon.socketPath)
    #expect(pending.status == 0, "\(pending.stderr)")
    #expect(pending.stdout == "[]\n")
    #expect(try chime(["delivered", "--json"], socket: daemon.socketPath).stdout == "[]\n")
    let removed = try chime(["remove", "--all", "--json"], socket: daemon.socketPath)
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("\"removed\":[]"), "\(removed.stdout)")
    #expect(!removed.stdout.contains("[\n"), "\(removed.stdout)")
    // Brackets inside strings are text, kept as they are.
    let add = try chime(["add", "x", "--title", "[  ]", "--user-info", #"{"list": [], "map": {}}"#, "--in", "1h", "--json"],
                        socket: daemon.socketPath)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains(#""[  ]""#), "\(add.stdout)")
    #expect(add.stdout.contains(#""list":[]"#) && add.stdout.contains(#""map":{}"#), "\(add.stdout)")
    // Compact, as every --json output: one value on one line.
    #expect(add.stdout.split(separator: "\n").count == 1, "\(add.stdout)")
    let content = try #require(add.object?["content"] as? [String: Any])
    #expect(content["title"] as? String == "[  ]")
  }

  @Test func removingWhatIsNotThereUsesTheStatusReasonForm() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let unknown = try chime(["remove", "nosuch"], socket: daemon.socketPath)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("chime: NOT_FOUND NOTIFICATION_NOT_PENDING: nosuch is not pending"), "\(unknown.stderr)")
    let ignored = try chime(["remove", "nosuch", "--ignore-missing"], socket: daemon.socketPath)
    #expect(ignored.status == 0)
    #expect(ignored.stderr.isEmpty, "\(ignored.stderr)")
    let json = try chime(["remove", "nosuch", "--json"], socket: daemon.socketPath)
    #expect(json.status == 1)
    #expect((json.object?["not_found"] as? [String]) == ["nosuch"], "\(json.stdout)")

    #expect(try chime(["add", "tea", "--title", "Tea"], socket: daemon.socketPath).status == 0)
    let delivered = try chime(["remove", "tea"], socket: daemon.socketPath)
    #expect(delivered.status == 1)
    #expect(delivered.stderr.hasPrefix("chime: NOT_FOUND NOTIFICATION_NOT_PENDING: tea is not pending: it was delivered"))
    #expect(delivered.stderr.contains("chime delivered --remove tea"))
    let notDelivered = try chime(["delivered", "--remove", "nosuch"], socket: daemon.socketPath)
    #expect(notDelivered.status == 1)
    #expect(notDelivered.stderr.hasPrefix("chime: NOT_FOUND NOTIFICATION_NOT_DELIVERED: nosuch is not delivered"), "\(notDelivered.stderr)")
    let quiet = try chime(["delivered", "--remove", "nosuch", "--ignore-missing"], socket: daemon.socketPath)
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// `--count` counts events, the lines on stdout; the marker that the stream is live goes to
  /// stderr; an event that is not stored shows `live` where a cursor would be.
  @Test func watchCountCountsEventsAndLiveEventsHaveNoCursor() throws {
    let dir = TemporaryDirectory()
    // No session bus behind the address: each delivery is followed by a live-only
    // presentation-failed event.
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", "none"],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + dir.file("no-bus")])
    try daemon.start()
    defer { daemon.terminate() }
    for json in [false, true] {
      // An app of its own for each round: a watcher sees only its app's events.
      let app = Self.app + (json ? ".json" : ".text")
      #expect(try chime(["add", "first", "--title", "First", "--in", "1h"], socket: daemon.socketPath, app: app).status == 0)
      let out = dir.file("watch-\(json).out"), err = dir.file("watch-\(json).err")
      let environment = SpawnedProcess.environment(["CHIME_SOCKET": daemon.socketPath, "CHIME_APP": app])
      // Replays `first` (pending-added), goes live, then sees `tea` delivered and its
      // presentation failing: three events.
      let watch = try SpawnedProcess(DaemonProcess.binDirectory + "/chime", ["watch", "--after", "0", "--count", "3"] + (json ? ["--json"] : []),
                                     environment: environment, stdout: out, stderr: err)
      defer { if watch.isRunning { watch.signal(SIGKILL) } }
      try #require(pollUntil(within: 20) { ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "").contains("live") })
      #expect(try chime(["add", "tea", "--title", "Tea"], socket: daemon.socketPath, app: app).status == 0)
      #expect(watch.waitForExit(seconds: 20) == 0)
      let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
      let stderr = try String(contentsOfFile: err, encoding: .utf8)
      #expect(lines.count == 3, "\(lines)")
      #expect(!lines.contains { $0.contains("subscribed") }, "\(lines)")
      #expect(stderr.contains("chime watch --after "), "\(stderr)")
      let failed = try #require(lines.first { $0.contains("presentation-failed") }, "\(lines)")
      if json {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(failed.utf8)) as? [String: Any])
        #expect(object["cursor"] is NSNull, "\(failed)")
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((stored["cursor"] as? Int ?? 0) > 0, "\(lines[0])")
      } else {
        #expect(failed.contains("  live  presentation-failed"), "\(failed)")
        #expect(!failed.contains("#0"), "\(failed)")
        #expect(lines[0].contains("  #"), "\(lines[0])")
      }
    }
  }

  @Test func authorizeWarnsWhenAGrantLeavesOutWhatTheAppHad() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    // Posting under the implicit allow: alert, sound and badge.
    #expect(try chime(["add", "tea", "--title", "Tea", "--sound", "default"], socket: daemon.socketPath, app: "org.example.first").status == 0)
    let critical = try chime(["authorize", "--critical-alert"], socket: daemon.socketPath, app: "org.example.first")
    #expect(critical.status == 0, "\(critical.stderr)")
    #expect(critical.stderr.hasPrefix("chime: warning: org.example.first had alert, sound, badge"), "\(critical.stderr)")
    #expect(critical.stderr.contains("chime authorize --alert --sound --badge"), "\(critical.stderr)")
    #expect(critical.stderr.contains("chime apps settings org.example.first --alert on --sound on --badge on"), "\(critical.stderr)")
    // Asked again: the recorded decision is answered, nothing more is lost.
    let again = try chime(["authorize", "--critical-alert"], socket: daemon.socketPath, app: "org.example.first")
    #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")

    let together = try chime(["authorize", "--alert", "--sound", "--badge", "--critical-alert"], socket: daemon.socketPath,
                             app: "org.example.second")
    #expect(together.status == 0 && together.stderr.isEmpty, "\(together.stderr)")
    let soundLost = try chime(["authorize", "--alert", "--badge", "--json"], socket: daemon.socketPath, app: "org.example.third")
    #expect(soundLost.status == 0)
    #expect(soundLost.object?["granted"] as? Bool == true, "\(soundLost.stdout)")
    #expect(soundLost.stderr.contains("had sound and this grant leaves it out"), "\(soundLost.stderr)")
    let quiet = try chime(["authorize", "--provisional", "--alert"], socket: daemon.socketPath, app: "org.example.quiet")
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// Apple's example: a game invitation whose alert is all localization keys.
  static let localizedPayload = #"""
    {"aps": {"alert": {"title-loc-key": "GAME_PLAY_REQUEST_TITLE", "loc-key": "GAME_PLAY_REQUEST_FORMAT",
                       "loc-args": ["Jenna", "Frank"]}, "sound": "chime.aiff"},
     "gameID": "12345678"}
    """#

  @Test func localizedPushesShowTheirKeysAndArguments() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let payload = dir.file("game.json")
    try Self.localizedPayload.write(toFile: payload, atomically: true, encoding: .utf8)
    let push = try chime(["push", payload, "--id", "game", "--json"], socket: daemon.socketPath)
    #expect(push.status == 0, "\(push.stderr)")
    let content = try #require(push.object?["content"] as? [String: Any])
    let localization = try #require(content["alert_localization"] as? [String: Any], "\(push.stdout)")
    #expect(localization["title_loc_key"] as? String == "GAME_PLAY_REQUEST_TITLE")
    #expect(localization["title_loc_args"] as? [String] == [])
    #expect(localization["loc_key"] as? String == "GAME_PLAY_REQUEST_FORMAT")
    #expect(localization["loc_args"] as? [String] == ["Jenna", "Frank"])
    #expect(localization["subtitle_loc_key"] == nil)

    let listed = try #require(try chime(["delivered", "--json"], socket: daemon.socketPath).objects?.first)
    let listedContent = try #require(listed["content"] as? [String: Any])
    #expect((listedContent["alert_localization"] as? [String: Any])?["loc_args"] as? [String] == ["Jenna", "Frank"])

    let table = try chime(["delivered"], socket: daemon.socketPath)
    #expect(table.stdout.contains("GAME_PLAY_REQUEST_TITLE()"), "\(table.stdout)")

    // Only the body's key: the title column and the push line show it with its arguments.
    let bodyOnly = dir.file("body.json")
    try #"{"aps": {"alert": {"loc-key": "INVITE", "loc-args": ["Jenna"]}}}"#.write(toFile: bodyOnly, atomically: true, encoding: .utf8)
    let line = try chime(["push", bodyOnly, "--id", "invite"], socket: daemon.socketPath)
    #expect(line.status == 0, "\(line.stderr)")
    #expect(line.stdout.contains("delivered invite  \"INVITE(Jenna)\""), "\(line.stdout)")
    let rows = try chime(["delivered"], socket: daemon.socketPath)
    #expect(rows.stdout.split(separator: "\n").contains { $0.hasPrefix("invite") && $0.contains("INVITE(Jenna)") }, "\(rows.stdout)")
  }

  /// `extension run --service --json` prints each request as JSON that parses, whatever its
  /// identifier holds.
  @Test func serviceExtensionLinesAreJSONForAnyIdentifier() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let output = dir.file("service.out")
    let service = try SpawnedProcess(DaemonProcess.binDirectory + "/chime",
                                     ["extension", "run", "--service", "--json", "--set-title", "Changed", "--requests", "1"],
                                     environment: SpawnedProcess.environment(["CHIME_SOCKET": daemon.socketPath, "CHIME_APP": Self.app]),
                                     stdout: output, stderr: dir.file("service.err"))
    defer { if service.isRunning { service.signal(SIGKILL) } }
    let printed = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    try #require(pollUntil(within: 20) { printed().contains("registered") })
    let payload = dir.file("mutable.json")
    try #"{"aps": {"alert": "Hi", "mutable-content": 1}}"#.write(toFile: payload, atomically: true, encoding: .utf8)
    let id = #"say "hi" \ back"#
    let push = try chime(["push", payload, "--id", id, "--json"], socket: daemon.socketPath)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(service.waitForExit(seconds: 20) == 0)
    let request = try #require(printed().split(separator: "\n").first { $0.contains("service_request") }, "\(printed())")
    let object = try #require(try? JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any], "\(request)")
    #expect(object["id"] as? String == id)
  }
}
