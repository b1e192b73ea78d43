import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// `chime push` and `chime extension run --service` against the real chimed: the README's two
/// pushes (a media URL turned into an image attachment, and a slow extension delivered with its
/// best attempt), a crash mid-work, and refusals with their field paths.
@Suite(.testTimeLimit) struct PushEndToEndTests {
  static let app = "org.example.news"
  static let payload = #"{"aps": {"alert": {"title": "New picture", "body": "Someone posted a photo"}, "mutable-content": 1}, "media-url": "https://example.com/cat.png"}"#

  /// A `chime extension run --service` process and what it printed.
  func serviceExtension(_ arguments: [String], _ daemon: DaemonProcess, _ dir: TemporaryDirectory, name: String)
    throws -> (process: SpawnedProcess, printed: () -> String) {
    let output = dir.file("\(name).out")
    let process = try SpawnedProcess(DaemonProcess.binDirectory + "/chime",
                                     ["extension", "run", "--service", "--app", Self.app, "--socket", daemon.socketPath] + arguments,
                                     environment: SpawnedProcess.environment(), stdout: output, stderr: dir.file("\(name).err"))
    let printed = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    try #require(pollUntil(within: 20) { printed().contains("registered") })
    return (process, printed)
  }

  func push(_ file: String, _ daemon: DaemonProcess, timeout: Double = 60) async throws -> ChimeCLI.Run {
    try await ChimeCLI.runInBackground(["push", "--json", file], socket: daemon.socketPath, app: Self.app, timeout: timeout)
  }

  @Test func theReadmesTwoPushes() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--service-extension-timeout", "1", "--service-extension-grace", "1"])
    try daemon.start()
    let cat = MediaCorpus.copy("images/png-rgb.png", to: dir.file("cat.png"))
    let news = MediaCorpus.write(Data(Self.payload.utf8), to: dir.file("news.json"))

    // 1. The extension downloads the media URL (here: copies a local file) and attaches it.
    let fast = try serviceExtension(["--set-title", "A new cat", "--attach", cat, "--requests", "1"], daemon, dir, name: "fast")
    let first = try await push(news, daemon)
    #expect(first.status == 0, "\(first.stderr)")
    let content = first.object?["content"] as? [String: Any]
    #expect(content?["title"] as? String == "A new cat")
    let attachments = content?["attachments"] as? [[String: Any]]
    #expect(attachments?.count == 1, "\(first.stdout)")
    #expect((first.object?["push"] as? [String: Any])?["content"] as? String == "extension")
    #expect(fast.process.waitForExit() == 0)
    #expect(MediaCorpus.exists(cat), "the extension attached a copy; the user's file stays")

    // 2. Too slow: told time will expire, it sends its best attempt (the title, no attachment yet).
    let slow = try serviceExtension(["--set-title", "Best so far", "--attach", cat, "--delay", "60s", "--requests", "1"], daemon, dir, name: "slow")
    let second = try await push(news, daemon)
    #expect(second.status == 0, "\(second.stderr)")
    let best = second.object?["content"] as? [String: Any]
    #expect(best?["title"] as? String == "Best so far" && best?["attachments"] == nil)
    #expect((second.object?["push"] as? [String: Any])?["content"] as? String == "best-attempt")
    #expect(slow.process.waitForExit() == 0)
    #expect(slow.printed().contains("time will expire"))
    // Kept with the notifications: `chime delivered --json` says which content each one got.
    let listed = try ChimeCLI.run(["delivered", "--json"], socket: daemon.socketPath, app: Self.app)
    let sources = listed.objects?.compactMap { ($0["push"] as? [String: Any])?["content"] as? String }
    #expect(sources?.sorted() == ["best-attempt", "extension"], "\(listed.stdout)")
    #expect(daemon.terminate() == 0)
  }

  /// The README's example itself, run as written: its shell lines in bash from the repository
  /// (`/tmp/` made the test's directory, and a chimed whose deadline is 1 s instead of 30 s),
  /// printing what the README says they print, identifiers aside.
  @Test func theReadmesPushExampleRunsAsWritten() throws {
    let readme = try String(contentsOfFile: ReadmeCommands.root.appendingPathComponent("README.md").path, encoding: .utf8)
    let start = try #require(readme.range(of: "Try it with `make run`"))
    let end = try #require(readme.range(of: "## On the desktop", range: start.upperBound..<readme.endIndex))
    // Its indented blocks: commands, what they print, commands, what they print.
    var blocks: [[String]] = [[]]
    for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("    ") {
        blocks[blocks.count - 1].append(String(line.dropFirst(4)))
      } else if !blocks[blocks.count - 1].isEmpty {
        blocks.append([])
      }
    }
    blocks.removeAll { $0.isEmpty }
    try #require(blocks.count == 4, "\(blocks)")

    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--service-extension-timeout", "1", "--service-extension-grace", "1"])
    try daemon.start()
    defer { daemon.terminate() }
    let tmp = dir.file("tmp")
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    // Only the README's lines move to the test's directory: the clone itself may be under /tmp.
    let lines = (blocks[0] + blocks[2]).map { $0.replacingOccurrences(of: "/tmp/", with: tmp + "/") }
    let script = (["cd '\(ReadmeCommands.root.path)'"] + lines + ["wait"]).joined(separator: "\n")
    let out = dir.file("readme.out")
    let bash = try SpawnedProcess("/bin/bash", ["-euc", script], environment: SpawnedProcess.environment([
      "CHIME_SOCKET": daemon.socketPath, "PATH": DaemonProcess.binDirectory + ":/usr/bin:/bin",
    ]), stdout: out, stderr: dir.file("readme.err"))
    let status = bash.waitForExit(seconds: 60)
    let err = (try? String(contentsOfFile: dir.file("readme.err"), encoding: .utf8)) ?? ""
    #expect(status == 0, "\(err)")
    let uuid = try Regex("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    let printed = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").replacing(uuid, with: "ID")
    let expected = (blocks[1] + blocks[3]).map { $0.replacing(uuid, with: "ID") }.joined(separator: "\n") + "\n"
    #expect(printed == expected, "\(err)")
  }

  /// `chime push -` reads the payload from standard input, as its help says.
  @Test func aPayloadOnStandardInput() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let out = dir.file("push.out")
    let pushing = try SpawnedProcess("/bin/sh", ["-c", #"echo '{"aps":{"alert":"Hello"}}' | "$0" push --app org.example.news --id hi -"#,
                                                 DaemonProcess.binDirectory + "/chime"],
                                     environment: SpawnedProcess.environment(["CHIME_SOCKET": daemon.socketPath]),
                                     stdout: out, stderr: dir.file("push.err"))
    #expect(pushing.waitForExit(seconds: 20) == 0)
    #expect(((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") == "delivered hi  \"Hello\"\ncontent: original\n")
    let listed = try ChimeCLI.run(["delivered", "--json"], socket: daemon.socketPath, app: Self.app)
    #expect(listed.objects?.compactMap { $0["id"] as? String } == ["hi"], "\(listed.stdout)")
  }

  @Test func anExtensionKilledMidWorkGetsTheOriginalDelivered() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let news = MediaCorpus.write(Data(Self.payload.utf8), to: dir.file("news.json"))
    let ext = try serviceExtension(["--set-title", "Never", "--delay", "60s"], daemon, dir, name: "crash")
    // The push runs as a process of its own: polling below blocks this thread, and a task
    // started here might not get a thread to run on while the other tests run.
    let pushOutput = dir.file("push.out")
    let pushing = try SpawnedProcess(DaemonProcess.binDirectory + "/chime",
                                     ["push", "--json", news, "--app", Self.app, "--socket", daemon.socketPath],
                                     environment: SpawnedProcess.environment(), stdout: pushOutput, stderr: dir.file("push.err"))
    try #require(pollUntil(within: 20) { ext.printed().contains("service request") })
    ext.process.signal(SIGKILL)
    #expect(pushing.waitForExit(seconds: 20) == 0)
    let printed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: pushOutput))) as? [String: Any]
    #expect((printed?["content"] as? [String: Any])?["title"] as? String == "New picture")
    #expect((printed?["push"] as? [String: Any])?["reason"] as? String == "SERVICE_EXTENSION_DISCONNECTED")
    #expect(daemon.terminate() == 0)
  }

  @Test func refusedPayloadsNameTheField() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--push-payload-limit", "64"])
    try daemon.start()
    let cases = [
      ("not json", "INVALID_PUSH_PAYLOAD", "(field payload)"),
      (#"{"aps":{"alert":{"subtitle":false}}}"#, "INVALID_PUSH_PAYLOAD", "(field aps.alert.subtitle)"),
      (#"{"aps":{"alert":"x","interruption-level":"loud"}}"#, "UNKNOWN_INTERRUPTION_LEVEL", "(field aps.interruption-level)"),
      (#"{"aps":{"alert":"\#(String(repeating: "x", count: 64))"}}"#, "PUSH_PAYLOAD_TOO_LARGE", "(field payload)"),
    ]
    for (n, (json, reason, field)) in cases.enumerated() {
      let file = MediaCorpus.write(Data(json.utf8), to: dir.file("bad\(n).json"))
      let run = try ChimeCLI.run(["push", file], socket: daemon.socketPath, app: Self.app)
      #expect(run.status == 1 && run.stderr.contains("INVALID_ARGUMENT \(reason)") && run.stderr.contains(field), "\(run.stderr)")
    }
    #expect(daemon.terminate() == 0)
  }
}
