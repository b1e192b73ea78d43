import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Output people read (tables, JSON, times, errors), through the real binary.
@Suite(.testTimeLimit, .serialized) struct CLIOutputTests {
  static let app = "org.example.output"

  func chime(_ arguments: [String], socket: String = "/nonexistent/chimed.sock", directory: String? = nil) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: Self.app, directory: directory)
  }

  /// Terminal columns of the test's own strings: the wide ones it uses take 2, U+0301 none.
  static func columns(_ line: String) -> Int {
    let wide: Set<Unicode.Scalar> = Set("日本語のタイトル🍵☕".unicodeScalars)
    return line.unicodeScalars.reduce(0) { $0 + ($1.value == 0x301 ? 0 : wide.contains($1) ? 2 : 1) }
  }

  static let titles: [(id: String, title: String, columns: Int)] = [
    ("cjk", "日本語のタイトル", 16), ("emoji", "🍵 Tea ☕", 9), ("accent", "Cafe\u{301}", 4), ("standup-reminder", "Long", 4),
  ]

  /// `chime delivered` at 80 columns, as `pending`: the identifier stays whole (it is what
  /// `chime delivered --remove` takes next) and the title is cut first.
  @Test func deliveredKeepsIdentifiersWholeAtEightyColumns() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let id = "weekly-standup-reminder-for-the-platform-team"
    let title = "Standup with the whole platform team in the large meeting room"
    #expect(try chime(["add", id, "--title", title], socket: daemon.socketPath).status == 0)
    let listed = try chime(["delivered", "--width", "80"], socket: daemon.socketPath)
    #expect(listed.status == 0, "\(listed.stderr)")
    let lines = listed.stdout.split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { Self.columns($0) <= 80 }, "\(listed.stdout)")
    #expect(lines.contains { $0.hasPrefix(id + " ") }, "\(listed.stdout)")
    #expect(!listed.stdout.contains(title), "the title was not the column cut: \(listed.stdout)")
  }

  @Test func tablesPadByDisplayWidthAndCutOnlyWhenAsked() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    for row in Self.titles {
      let add = try chime(["add", row.id, "--title", row.title, "--in", "1h"], socket: daemon.socketPath)
      #expect(add.status == 0, "\(add.stderr)")
    }

    // Piped, no width asked: nothing cut (even with $COLUMNS set), titles padded by columns.
    let environment = ["CHIME_SOCKET": daemon.socketPath, "CHIME_APP": Self.app, "COLUMNS": "40"]
    let run = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["pending"], environment: environment, timeout: 60)
    let piped = (status: run.status, stdout: run.output, stderr: run.errors)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.contains("standup-reminder  Long"))
    #expect(!piped.stdout.contains("…"))
    for row in Self.titles {
      // The widest title is 16 columns: each is followed by the spaces that reach 16, then 2.
      #expect(piped.stdout.contains(row.title + String(repeating: " ", count: 16 - row.columns + 2) + "in 1h from "),
              "\(row.id): \(piped.stdout)")
    }
    #expect(piped.stdout.contains("TITLE" + String(repeating: " ", count: 16 - 5 + 2) + "TRIGGER"))

    // --width 80: every line fits, every identifier whole (it is what people type next) and the
    // titles cut first, columns still line up.
    let cut = try chime(["pending", "--width", "80"], socket: daemon.socketPath)
    #expect(cut.status == 0, "\(cut.stderr)")
    let lines = cut.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines.allSatisfy { Self.columns($0) <= 80 }, "\(cut.stdout)")
    for row in Self.titles {
      #expect(lines.contains { $0.hasPrefix(row.id + " ") }, "\(row.id) cut: \(cut.stdout)")
    }
    #expect(lines.contains { $0.hasPrefix("cjk") && $0.contains("日本…") }, "\(cut.stdout)")
    // The time columns are kept whole while the free text can narrow, and start in one column.
    let triggerStarts = lines.map { line in
      line.range(of: line.hasPrefix("ID") ? "TRIGGER" : "in 1h from ").map { Self.columns(String(line[..<$0.lowerBound])) }
    }
    #expect(Set(triggerStarts).count == 1 && triggerStarts[0] != nil, "\(cut.stdout)")
    #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(")") }, "\(cut.stdout)")

    // JSON is never cut.
    let json = try chime(["pending", "--json", "--width", "20"], socket: daemon.socketPath)
    #expect(json.objects?.contains { ($0["content"] as? [String: Any])?["title"] as? String == "日本語のタイトル" } == true, "\(json.stdout)")

    // On a terminal (a pty from script(1)), $COLUMNS is the width.
    let chimePath = DaemonProcess.binDirectory + "/chime"
    let tty = try ChildProcess.run("/usr/bin/script", ["-q", "-e", "-c", "'\(chimePath)' pending", "/dev/null"],
                                   environment: environment.merging(["COLUMNS": "60"]) { $1 },
                                   timeout: 60)
    #expect(tty.status == 0, "\(tty.errors)")
    let ttyLines = tty.output.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
    #expect(ttyLines.count == 5, "\(tty.output)")
    #expect(ttyLines.allSatisfy { Self.columns($0) <= 60 }, "\(tty.output)")
    #expect(tty.output.contains("…"))
  }

  @Test func clipTakesCommasOrColonsInAttachAndCheck() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let work = dir.file("work")
    let png = MediaCorpus.data("images/png-rgb.png")
    for name in ["a.png", "b.png", "c.png", "d.png"] { MediaCorpus.write(png, to: work + "/" + name) }

    for clip in ["0,0,0.5,0.5", "0:0:0.5:0.5"] {
      let check = try chime(["attachment", "check", "a.png", "--clip", clip], directory: work)
      #expect(check.status == 0, "--clip \(clip): \(check.stdout) \(check.stderr)")
    }
    for (file, clip) in [("a.png", "0,0,0.5,0.5"), ("b.png", "0.25:0.25:0.5:0.5"), ("c.png", "0,0,0.5,0.5,hidden")] {
      let add = try chime(["add", file, "--title", "Pic", "--in", "1h", "--attach", "\(file),clip=\(clip)", "--json"],
                          socket: daemon.socketPath, directory: work)
      #expect(add.status == 0, "clip=\(clip): \(add.stderr)")
      let content = try #require(add.object?["content"] as? [String: Any])
      let attachment = try #require((content["attachments"] as? [[String: Any]])?.first)
      let options = try #require(attachment["options"] as? [String: Any])
      let rect = try #require(options["thumbnail_clipping_rect"] as? [Double])
      #expect(rect == (file == "b.png" ? [0.25, 0.25, 0.5, 0.5] : [0, 0, 0.5, 0.5]))
      #expect((options["thumbnail_hidden"] as? Bool == true) == (file == "c.png"))
    }
    let short = try chime(["add", "d", "--title", "Pic", "--attach", "d.png,clip=0,0,0.5"], directory: work)
    #expect(short.status == 64)
    #expect(short.stderr.contains("clip= takes x,y,w,h or x:y:w:h"), "\(short.stderr)")

    // The file is moved, and chime add says so (and how to keep an original), as --help does.
    let moved = try chime(["add", "d", "--title", "Pic", "--in", "1h", "--attach", "d.png"], socket: daemon.socketPath, directory: work)
    #expect(moved.status == 0, "\(moved.stderr)")
    #expect(moved.stdout.contains("moved from \(work)/d.png to ") && moved.stdout.contains("attach a copy"), "\(moved.stdout)")
    #expect(!FileManager.default.fileExists(atPath: work + "/d.png"))
    let help = try chime(["add", "--help"]).stdout
    #expect(help.contains("--attach MOVES each file into chimed's store") && help.contains("attach a copy"), "\(help)")
  }

  @Test func soundInspectOfADirectorySaysItIsOne() throws {
    let dir = TemporaryDirectory()
    let sounds = dir.file("Sounds")
    MediaCorpus.write(Data(), to: sounds + "/empty.caf")
    let text = try chime(["sound", "inspect", sounds])
    #expect(text.status == 1)
    #expect(text.stdout.contains("is a directory"), "\(text.stdout)")
    #expect(text.stdout.contains("SOUND_NOT_FOUND"))
    #expect(!text.stdout.contains("SOUND_CORRUPT"))
    let json = try chime(["sound", "inspect", sounds, "--json"])
    #expect(json.object?["reason"] as? String == "SOUND_NOT_FOUND")
    #expect((json.object?["message"] as? String)?.contains("is a directory") == true)
    // A real file that is broken is still corrupt.
    #expect(try chime(["sound", "inspect", sounds + "/empty.caf"]).stdout.contains("SOUND_CORRUPT"))
  }

  @Test func completionsOfferEnumValuesAndTheReadmeSaysHowToInstallThem() throws {
    // Each shell's own form of a value list: bash `-W 'a'$'\n''b'`, zsh `=('a' 'b')`, fish `-rfka 'a b'`.
    let lists: [String: ([String]) -> String] = [
      "bash": { "-W '" + $0.joined(separator: "'$'\\n''") + "'" },
      "zsh": { "=(" + $0.map { "'\($0)'" }.joined(separator: " ") + ")" },
      "fish": { "-rfka '" + $0.joined(separator: " ") + "'" },
    ]
    for (shell, list) in lists {
      let script = try chime(["--generate-completion-script", shell])
      #expect(script.status == 0, "\(shell): \(script.stderr)")
      for values in [["passive", "active", "time-sensitive", "critical"], ["next", "skip"], ["first", "both"], ["deliver", "skip"],
                     ["keep", "dismiss", "forward"], ["none", "default", "overlay"], ["on", "off"]] {
        #expect(script.stdout.contains(list(values)), "\(shell): no \(list(values))")
      }
    }
    let readme = try String(contentsOfFile: ReadmeCommands.root.appendingPathComponent("README.md").path, encoding: .utf8)
    for shell in ["bash", "zsh", "fish"] { #expect(readme.contains("chime --generate-completion-script \(shell) > ")) }
  }

  /// What `pending --json` prints is enough to give the same request to `chime add` again (the
  /// CLI has no JSON input: the test turns the JSON into `add`'s options, as a script would).
  @Test func pendingJSONIsEnoughToAddTheSameRequestAgain() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let socket = daemon.socketPath
    let adds: [[String]] = [
      ["add", "standup", "--title", "Standup", "--subtitle", "Room 4", "--body", "Daily", "--calendar", "weekday=mon,hour=9,minute=30",
       "--tz", "Europe/Berlin", "--repeats", "--dst-gap", "skip", "--dst-overlap", "both", "--missed", "10m", "--level", "time-sensitive",
       "--badge", "3", "--user-info", "{\"room\": 4}", "--category", "meeting", "--thread", "work", "--target-content-id", "t1",
       "--relevance", "0.5", "--sound", "ding.caf"],
      ["add", "stretch", "--title", "Stretch", "--in", "1h30m", "--repeats", "--missed", "skip", "--sound", "default", "--critical", "--volume", "0.5"],
      ["add", "dentist", "--title", "Dentist", "--at", "2099-03-04T08:15:00Z", "--level", "passive", "--sound", "none"],
    ]
    for add in adds { #expect(try chime(add, socket: socket).status == 0, "\(add)") }
    let first = try #require(try chime(["pending", "--json"], socket: socket).objects)
    #expect(first.count == 3)
    #expect(try chime(["remove", "--all"], socket: socket).status == 0)
    for object in first {
      let arguments = try Self.addArguments(object)
      let again = try chime(arguments, socket: socket)
      #expect(again.status == 0, "\(arguments): \(again.stderr)")
    }
    let second = try #require(try chime(["pending", "--json"], socket: socket).objects)
    let keys = ["id", "content", "trigger", "missed"]
    func comparable(_ list: [[String: Any]]) throws -> [String] {
      try list.map { object in
        let kept = object.filter { keys.contains($0.key) }
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
      }.sorted()
    }
    #expect(try comparable(first) == comparable(second))
    let standup = try #require(second.first { $0["id"] as? String == "standup" })
    #expect((standup["trigger"] as? [String: Any])?["calendar"] as? String == "weekday=mon,hour=9,minute=30")
    #expect((standup["content"] as? [String: Any])?["interruption_level"] as? String == "time-sensitive")
  }

  /// `chime add` options that give the request `object` (one element of `pending --json`).
  static func addArguments(_ object: [String: Any]) throws -> [String] {
    var arguments = ["add", try #require(object["id"] as? String)]
    let content = try #require(object["content"] as? [String: Any])
    for (key, option) in [("title", "--title"), ("subtitle", "--subtitle"), ("body", "--body"), ("category", "--category"),
                          ("thread", "--thread"), ("target_content_id", "--target-content-id"), ("interruption_level", "--level")] {
      if let value = content[key] as? String, !value.isEmpty { arguments += [option, value] }
    }
    if let badge = content["badge"] as? Int { arguments += ["--badge=\(badge)"] }
    if let score = content["relevance_score"] as? Double { arguments += ["--relevance", "\(score)"] }
    if let info = content["user_info"] {
      arguments += ["--user-info", String(decoding: try JSONSerialization.data(withJSONObject: info), as: UTF8.self)]
    }
    if let sound = content["sound"] as? [String: Any] {
      let name = sound["name"] as? String
      switch sound["kind"] as? String {
      case "none": arguments += ["--sound", "none"]
      case "default": arguments += ["--sound", "default"]
      case "named": arguments += ["--sound", try #require(name)]
      case "defaultCritical": arguments += ["--sound", "default", "--critical"]
      case "criticalNamed": arguments += ["--sound", try #require(name), "--critical"]
      default: Issue.record("sound kind \(String(describing: sound["kind"]))")
      }
      if let volume = sound["volume"] as? Double { arguments += ["--volume", "\(volume)"] }
    }
    let trigger = try #require(object["trigger"] as? [String: Any])
    switch trigger["type"] as? String {
    case "time_interval":
      arguments += ["--in", try #require(trigger["in"] as? String)]
    case "calendar":
      if let at = trigger["at"] as? String {
        arguments += ["--at", at]
      } else {
        arguments += ["--calendar", try #require(trigger["calendar"] as? String)]
        if let tz = trigger["tz"] as? String { arguments += ["--tz", tz] }
        arguments += ["--dst-gap", try #require(trigger["dst_gap"] as? String), "--dst-overlap", try #require(trigger["dst_overlap"] as? String)]
      }
    default: break
    }
    if trigger["repeats"] as? Bool == true { arguments.append("--repeats") }
    arguments += ["--missed", try #require(object["missed"] as? String)]
    return arguments
  }

  /// Negative numbers reach the check that says why they are refused, and `next --json` refuses
  /// in JSON as every other command does.
  @Test func negativeNumbersAndNextRefusalsSayWhy() throws {
    let cursor = try chime(["watch", "--after", "-1"])
    #expect(cursor.status == 64)
    #expect(cursor.stderr.contains("--after takes a cursor, 0 or more (got -1)"), "\(cursor.stderr)")
    let count = try chime(["watch", "--count", "-2"])
    #expect(count.status == 64)
    #expect(count.stderr.contains("--count must be at least 1 (got -2)"), "\(count.stderr)")
    let width = try chime(["next", "--in", "90s", "--width", "-3"])
    #expect(width.status == 64, "\(width.stderr)")
    let next = try chime(["next", "--calendar", "hour=99", "--json"])
    #expect(next.status == 1)
    #expect(next.object?["reason"] as? String == "INVALID_DATE_COMPONENT", "\(next.stdout)")
    #expect(next.object?["exit_status"] as? Int == 1)
  }

  /// The remaining papercuts: TRIGGER says what was asked, weekdays and levels are spelled out
  /// as typed, help names the fallback socket, and a bad command line ends with its own usage.
  @Test func outputSpellsWhatInputTakes() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let socket = daemon.socketPath
    #expect(try chime(["add", "tea", "--title", "Tea", "--in", "2h", "--level", "time-sensitive"], socket: socket).status == 0)
    #expect(try chime(["add", "standup", "--title", "Standup", "--calendar", "weekday=mon,hour=9", "--repeats"], socket: socket).status == 0)
    #expect(try chime(["add", "dentist", "--title", "Dentist", "--at", "2099-03-04T08:15:00Z"], socket: socket).status == 0)
    let table = try chime(["pending"], socket: socket).stdout
    #expect(table.contains("in 2h from "), "\(table)")
    #expect(table.contains("every weekday=mon,hour=9"), "\(table)")
    #expect(table.contains("at 2099-03-0"), "\(table)")
    #expect(!table.contains("weekday=2"))
    let json = try #require(try chime(["pending", "--json"], socket: socket).objects)
    let tea = try #require(json.first { $0["id"] as? String == "tea" })
    #expect((tea["content"] as? [String: Any])?["interruption_level"] as? String == "time-sensitive")
    let standup = try #require(json.first { $0["id"] as? String == "standup" })
    #expect((standup["trigger"] as? [String: Any])?["calendar"] as? String == "weekday=mon,hour=9")
    #expect((standup["trigger"] as? [String: Any])?["weekday_name"] as? String == "mon")

    let help = try chime(["help", "pending"])
    #expect(help.stdout.contains("/tmp/chime-UID/chimed.sock"), "\(help.stdout)")
    let nosuch = try chime(["help", "nosuch"])
    #expect(nosuch.status == 64)
    #expect(nosuch.stderr.contains("unknown command \"nosuch\""))

    let invalid = try chime(["add", "x", "--title", "X", "--in", "10"])
    #expect(invalid.status == 64)
    #expect(invalid.stderr.contains("needs a unit"))
    #expect(invalid.stderr.contains("Usage: chime add"), "\(invalid.stderr)")
    let nested = try chime(["apps", "register", "org.example.tea", "--width", "-1"])
    #expect(nested.status == 64)
    #expect(nested.stderr.contains("--width takes a number of columns"), "\(nested.stderr)")
    #expect(nested.stderr.contains("Usage: chime apps register"), "\(nested.stderr)")
    let parse = try chime(["add", "x", "--nosuch"])
    #expect(parse.status == 64)
    #expect(parse.stderr.contains("Usage: chime add"), "\(parse.stderr)")
  }
}
