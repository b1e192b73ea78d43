import ChimeTestSupport
import Foundation
import Testing

/// What the CLI tells people, checked against what it takes (issue 39): every flag a hint or
/// help text names exists in the command it is meant for, examples never age, and every command
/// takes `--json`. The flags come from the parser itself (`chime --experimental-dump-help`);
/// the messages from the string literals of `Sources/chime` and `Sources/ChimeCore`.
@Suite(.testTimeLimit) struct CLIHintTests {
  /// The command tree as the parser describes it.
  struct Command {
    var path: [String]
    var flags: Set<String>
    var texts: [String]
    var subcommands: [String]
  }

  static func tree() throws -> [String: Command] {
    let run = try ChimeCLI.run(["--experimental-dump-help"], timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    let root = try #require(run.object?["command"] as? [String: Any], "\(run.stdout.prefix(200))")
    var commands: [String: Command] = [:]
    func walk(_ node: [String: Any], _ path: [String]) {
      var flags: Set<String> = ["--help", "-h"]
      var texts = [node["abstract"] as? String, node["discussion"] as? String].compactMap { $0 }
      for argument in node["arguments"] as? [[String: Any]] ?? [] {
        for name in argument["names"] as? [[String: Any]] ?? [] {
          guard let text = name["name"] as? String else { continue }
          flags.insert((name["kind"] as? String == "short" ? "-" : "--") + text)
        }
        texts += [argument["abstract"] as? String, argument["discussion"] as? String].compactMap { $0 }
      }
      let subcommands = node["subcommands"] as? [[String: Any]] ?? []
      let names = subcommands.compactMap { $0["commandName"] as? String }
      commands[path.joined(separator: " ")] = Command(path: path, flags: flags, texts: texts, subcommands: names)
      for sub in subcommands {
        guard let name = sub["commandName"] as? String, name != "help" else { continue }
        walk(sub, path + [name])
      }
    }
    walk(root, [])
    return commands
  }

  /// chimed's flags, from its recorded `--help`.
  static func chimedFlags() throws -> Set<String> {
    let text = try String(contentsOf: ReadmeCommands.root.appendingPathComponent("Tests/Fixtures/help/chimed.txt"), encoding: .utf8)
    return Set(flagTokens(text).map(\.flag)).union(["--help", "--version"])
  }

  /// The matches of `pattern` in `text`: each match's whole text and groups, and where it starts.
  static func matches(_ pattern: String, in text: String) -> [(groups: [String], at: String.Index)] {
    let regex = try! NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
      guard let whole = Range(match.range, in: text) else { return nil }
      let groups = (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
      return (groups, whole.lowerBound)
    }
  }

  /// `--flag` tokens of `text` with where they start: two dashes and a lowercase word, not
  /// inside another word (`a--b`).
  static func flagTokens(_ text: String) -> [(flag: String, at: String.Index)] {
    matches("(?<![A-Za-z0-9_-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*", in: text).map { ($0.groups[0], $0.at) }
  }

  /// Swift files under the repository's `directory`, with their paths from the root.
  static func sources(_ directory: String) throws -> [(path: String, text: String)] {
    let root = ReadmeCommands.root.appendingPathComponent(directory)
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    return try files.sorted().map { ("\(directory)/\($0)", try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
  }

  /// Other programs a message tells people to run; their flags are their own.
  static let foreignPrograms = "systemctl|journalctl|busctl|dbus-send|gdbus|dunstctl|ffmpeg|ffplay|paplay|pw-play|aplay|make|git|swift"

  /// A message or help text, not an argument list: three words or more besides flags.
  static func isMessage(_ literal: String) -> Bool {
    literal.split(separator: " ").filter { !$0.hasPrefix("-") && $0.contains { $0.isLetter } }.count >= 3
  }

  /// ChimeCore's checks of a trigger, whose messages `chime add` and `chime next` both show:
  /// a flag they name must be taken by both.
  static let triggerSources = ["/Recurrence/", "/Calendar/", "/Scheduling/", "/CalendarSpec.swift", "/WeekdaySetText.swift",
                               "/DurationInput.swift"]

  /// Every `--flag` in a message, a hint or a help text exists where it is meant:
  /// - after `chime SUBCOMMAND` on the same line (or its ` \` continuation), in that command;
  /// - after `chimed`, in chimed's flags;
  /// - otherwise in a file of `Sources/chime`, in the commands the file declares (any command
  ///   for a file that declares none, or the root); in ChimeCore, in any command, chimed, or a
  ///   flag the same file passes to another program — and for a trigger's messages, in both
  ///   `add` and `next`.
  @Test func everyFlagAMessageNamesExists() throws {
    let tree = try Self.tree()
    let chimed = try Self.chimedFlags()
    let everyFlag = tree.values.reduce(into: Set<String>()) { $0.formUnion($1.flags) }
    var unknown: [String] = []

    for (directory, isCore) in [("Sources/chime", false), ("Sources/ChimeCore", true)] {
      for file in try Self.sources(directory) {
        let literals = SwiftStringLiterals.of(file.text)
        // A literal that is a flag alone is an argument list for some program, not a message.
        let passed = Set(literals.filter { Self.flagTokens($0).count == 1 && $0.hasPrefix("--") && !$0.contains(" ") }
          .flatMap { Self.flagTokens($0).map(\.flag) })
        let declared = Self.matches("commandName: \"([a-z-]+)\"", in: file.text).map { $0.groups[1] }
        var meant: [Set<String>]
        if isCore {
          meant = Self.triggerSources.contains { file.path.contains($0) }
            ? [tree["add"]!.flags, tree["next"]!.flags]
            : [everyFlag.union(chimed).union(passed)]
        } else if declared.isEmpty || declared.contains("chime") {
          meant = [everyFlag]
        } else {
          meant = [tree.values.filter { $0.path.last.map(declared.contains) == true }.reduce(into: Set<String>()) { $0.formUnion($1.flags) }]
        }
        for literal in literals where Self.isMessage(literal) {
          var context: [Set<String>]? = meant
          for line in literal.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // Mentions of a program on this line switch what its later flags are checked
            // against: `chime SUBCOMMAND`, `chimed --flag`, or another program (whose flags are
            // its own, nil). One in backticks ends at the closing backtick.
            var mentions: [(at: String.Index, end: String.Index, flags: Set<String>?)] = []
            for match in Self.matches("(?<![A-Za-z0-9._/-])(chimed(?= --)|chime(?= |$|`)((?: [a-z][a-z-]*)*)|\(Self.foreignPrograms)(?= ))", in: line) {
              let quoted = match.at > line.startIndex && line[line.index(before: match.at)] == "`"
              let after = line.index(match.at, offsetBy: match.groups[0].count)
              let end = quoted ? (line[after...].firstIndex(of: "`") ?? line.endIndex) : line.endIndex
              if match.groups[1] == "chimed" {
                mentions.append((match.at, end, chimed))
              } else if match.groups[1].hasPrefix("chime") {
                let words = match.groups[2].split(separator: " ").map(String.init)
                let path = (0...words.count).reversed().map { words.prefix($0).joined(separator: " ") }.first { tree[$0] != nil } ?? ""
                mentions.append((match.at, end, tree[path]!.flags))
              } else {
                mentions.append((match.at, end, nil))
              }
            }
            for token in Self.flagTokens(line) {
              let sets: [Set<String>]? = if let mention = mentions.last(where: { $0.at < token.at && token.at < $0.end }) {
                mention.flags.map { [$0] }
              } else {
                context
              }
              if let sets, !sets.allSatisfy({ $0.contains(token.flag) }) {
                unknown.append("\(file.path): \(token.flag) in \"\(line.trimmingCharacters(in: .whitespaces))\"")
              }
            }
            // An example that ends in ` \` (written `\\`) goes on with the same command on the
            // next line; anything else starts from the file's commands again.
            if line.hasSuffix("\\\\"), let last = mentions.last, last.end == line.endIndex { context = last.flags.map { [$0] } } else { context = meant }
          }
        }
      }
    }
    #expect(unknown.isEmpty, "flags no parser takes:\n\(unknown.joined(separator: "\n"))")
  }

  /// Examples and messages never age: every date in a help text or a message is in a year far
  /// ahead, so none is in the past when someone reads it.
  @Test func examplesAndMessagesAreDatedFarAhead() throws {
    let farAhead = 2099
    let now = Calendar(identifier: .gregorian).component(.year, from: Date())
    var texts = try Self.tree().values.flatMap { command in command.texts.map { ("chime \(command.path.joined(separator: " ")) --help", $0) } }
    for directory in ["Sources/chime", "Sources/ChimeCore"] {
      for file in try Self.sources(directory) {
        texts += SwiftStringLiterals.of(file.text).map { (file.path, $0) }
      }
    }
    var aged: [String] = []
    for (place, text) in texts {
      for match in Self.matches("(?<![0-9])((?:19|20)[0-9]{2})-(?:0[1-9]|1[0-2])-[0-3][0-9]", in: text) {
        let year = Int(match.groups[1])!
        if year < farAhead || year <= now { aged.append("\(place): \(match.groups[0]) in \"\(text.prefix(120))\"") }
      }
    }
    #expect(aged.isEmpty, "dates that will age:\n\(aged.joined(separator: "\n"))")
  }

  /// `--json` everywhere: every command that does something takes it (a command that only
  /// groups subcommands has nothing to print).
  @Test func everyCommandTakesJSON() throws {
    let tree = try Self.tree()
    let leaves = tree.values.filter { !$0.path.isEmpty && ($0.subcommands.filter { $0 != "help" }.isEmpty) }
    #expect(leaves.count > 20)
    let without = leaves.filter { !$0.flags.contains("--json") }.map { "chime " + $0.path.joined(separator: " ") }.sorted()
    #expect(without.isEmpty, "commands without --json: \(without)")
  }

  /// `add` and `next` take the same trigger flags, so what one accepts the other previews.
  @Test func addAndNextShareTheTriggerFlags() throws {
    let tree = try Self.tree()
    for flag in ["--in", "--at", "--calendar", "--rrule", "--tz", "--repeats", "--until", "--count", "--start", "--exclude",
                 "--dst-gap", "--dst-overlap"] {
      #expect(tree["add"]!.flags.contains(flag) && tree["next"]!.flags.contains(flag), "\(flag)")
    }
    let interval = try ChimeCLI.run(["next", "--in", "10m", "--repeats", "--count", "3", "--after", "2099-01-01T00:00:00Z", "--json"], timeout: 30)
    #expect(interval.status == 0, "\(interval.stderr)")
    #expect(interval.objects?.compactMap { $0["utc"] as? String } == ["2099-01-01T00:10:00Z", "2099-01-01T00:20:00Z", "2099-01-01T00:30:00Z"],
            "\(interval.stdout)")
    let until = try ChimeCLI.run(["next", "--calendar", "hour=9", "--tz", "UTC", "--repeats", "--until", "2099-01-03T12:00:00Z",
                                  "--after", "2099-01-01T00:00:00Z", "--json"], timeout: 30)
    #expect(until.objects?.compactMap { $0["utc"] as? String } == ["2099-01-01T09:00:00Z", "2099-01-02T09:00:00Z", "2099-01-03T09:00:00Z"],
            "\(until.stdout) \(until.stderr)")
    let at = try ChimeCLI.run(["next", "--at", "2099-06-01T08:00:00Z", "--json"], timeout: 30)
    #expect(at.objects?.compactMap { $0["utc"] as? String } == ["2099-06-01T08:00:00Z"], "\(at.stdout) \(at.stderr)")
    // The hint for a rule chimed does not take names a flag both commands have.
    for command in [["add", "h", "--title", "H"], ["next"]] {
      let hourly = try ChimeCLI.run(command + ["--rrule", "FREQ=HOURLY", "--start", "2099-01-01T09:00"], timeout: 30)
      #expect(hourly.status == 64 && hourly.stderr.contains("(--in 2h --repeats)"), "\(hourly.stderr)")
    }
  }

  /// One duration grammar: a bare number is refused the same way wherever a duration goes, and
  /// a refusal names the bound it crossed.
  @Test func durationsReadAlikeEverywhere() throws {
    for arguments in [["add", "x", "--title", "X", "--in", "10"], ["next", "--in", "10"], ["pending", "--timeout", "10"],
                      ["dnd", "on", "--until", "10"], ["add", "x", "--title", "X", "--ring", "10"]] {
      let run = try ChimeCLI.run(arguments, socket: "/nonexistent/chimed.sock", timeout: 30)
      #expect(run.status == 64 && run.stderr.contains("10 needs a unit: say 10s or 10m"), "\(arguments): \(run.stderr)")
    }
    for arguments in [["snooze", "wake", "10"], ["respond", "wake", "--snooze", "10"]] {
      let run = try ChimeCLI.run(arguments, socket: "/nonexistent/chimed.sock", timeout: 30)
      #expect(run.status == 1 && run.stderr.contains("INVALID_SNOOZE_DURATION: 10 needs a unit: say 10s or 10m"), "\(arguments): \(run.stderr)")
    }
    for (text, bound) in [("8d", "8d is longer than the longest snooze, 1 week"), ("2w", "2w is longer than the longest snooze, 1 week"),
                          ("30s", "30s is shorter than the shortest snooze, 1 minute")] {
      let run = try ChimeCLI.run(["snooze", "wake", text], socket: "/nonexistent/chimed.sock", timeout: 30)
      #expect(run.status == 1 && run.stderr.contains(bound), "\(text): \(run.stderr)")
    }
    #expect(try ChimeCLI.run(["pending", "--timeout", "0"], socket: "/nonexistent/chimed.sock", timeout: 30).status == 69)
  }

  /// One weekday-set syntax: `--calendar weekday=` and `dnd schedule --days` take `+` and `,`
  /// alike and refuse an unknown day with the same words.
  @Test func weekdaySetsReadAlikeEverywhere() throws {
    let plus = try ChimeCLI.run(["next", "--calendar", "weekday=mon+wed,hour=9", "--tz", "UTC", "--repeats", "--limit", "4",
                                 "--after", "2099-01-01T00:00:00Z", "--json"], timeout: 30)
    let comma = try ChimeCLI.run(["next", "--calendar", "weekday=mon,wed,hour=9", "--tz", "UTC", "--repeats", "--limit", "4",
                                  "--after", "2099-01-01T00:00:00Z", "--json"], timeout: 30)
    #expect(plus.status == 0 && comma.status == 0, "\(plus.stderr) \(comma.stderr)")
    #expect(plus.stdout == comma.stdout && plus.objects?.count == 4, "\(plus.stdout)")

    let calendar = try ChimeCLI.run(["next", "--calendar", "weekday=mon,fry,hour=9"], timeout: 30)
    let dnd = try ChimeCLI.run(["dnd", "schedule", "22:00-07:00", "--days", "mon,fry"], socket: "/nonexistent/chimed.sock", timeout: 30)
    let refusal = "\"fry\" is not a weekday or a range of weekdays: give days as mon, tue, wed, thu, fri, sat, sun (or the full name), "
      + "a range (mon-fri), or several joined with + (mon+wed+fri)"
    #expect(calendar.status == 64 && calendar.stderr.contains(refusal), "\(calendar.stderr)")
    #expect(dnd.status == 1 && dnd.stderr.contains("INVALID_DND_DAYS: " + refusal), "\(dnd.stderr)")
  }
}
