import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// chimed under a unit whose stderr is the journal logs entries with fields: the app id and
/// request id searchable, the priority right, the text still readable. A stand-in journald
/// (Tests/Fixtures/journal/fake-journald.py) listens in a private mount namespace.
@Suite(.testTimeLimit) struct JournalTests {
  static let isRoot = geteuid() == 0

  static var fakeJournald: String {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()
    url.deleteLastPathComponent()
    return url.appendingPathComponent("Fixtures/journal/fake-journald.py").path
  }

  static func entries(_ path: String) -> [[String: String]] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
    }
  }

  @Test(.enabled(if: isRoot, "a private /run for the stand-in journald needs a mount namespace (CI runs the tests as root)"))
  func entriesCarryTheAppAndRequestAsFields() async throws {
    let dir = TemporaryDirectory()
    let journal = dir.file("journal.jsonl")
    let chimed = DaemonProcess.binDirectory + "/chimed"
    let script = "mount -t tmpfs tmpfs /run && exec python3 \"$0\" \"$@\""
    let daemon = try SpawnedProcess("/usr/bin/unshare", [
      "-m", "/bin/sh", "-c", script, Self.fakeJournald, journal, dir.file("chimed.stderr"), "--",
      chimed, "--socket", dir.socketPath, "--data-dir", dir.file("data"), "--presenter", "none", "--sound-player", "none",
    ], environment: SpawnedProcess.environment(["CHIME_SOCKET": nil]), stdout: dir.file("chimed.out"), stderr: dir.file("wrapper.err"))
    defer {
      daemon.signal(SIGTERM)
      _ = daemon.waitForExit()
    }
    let listening = pollUntil(within: 30) { Self.entries(journal).contains { $0["MESSAGE"]?.hasSuffix("listening") == true } }
    try #require(listening, "\((try? String(contentsOfFile: dir.file("wrapper.err"), encoding: .utf8)) ?? "")")

    let client = try ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.journal", timeout: 30)
    _ = try await client.add(NotificationRequest(identifier: "tea-now", content: NotificationContent(title: "Tea")))
    let found = pollUntil(within: 30) { Self.entries(journal).contains { $0["CHIME_REQUEST_ID"] == "tea-now" } }
    #expect(found, "the delivery's log entry reached the journal")
    let delivered = try #require(Self.entries(journal).first { $0["CHIME_REQUEST_ID"] == "tea-now" })
    #expect(delivered["CHIME_APP"] == "org.example.journal")
    #expect(delivered["PRIORITY"] == "6", "info")
    #expect(delivered["SYSLOG_IDENTIFIER"] == "chimed")
    #expect(delivered["MESSAGE"]?.hasSuffix("delivered") == true)
    #expect(delivered["MESSAGE"]?.contains("app=org.example.journal") == true, "the text keeps its context for plain journalctl")
    #expect(delivered["CODE_FILE"]?.isEmpty == false)
    // Nothing went to stderr as text: the journal got it all.
    let stderrText = (try? String(contentsOfFile: dir.file("chimed.stderr"), encoding: .utf8)) ?? ""
    #expect(!stderrText.contains("delivered"), "\(stderrText)")
  }
}
