import Foundation
import Testing

/// deploy/chimed.socket as installed: `systemctl --user stop chimed.socket` removes the socket
/// file, so no stale socket (one nothing listens on) is left for clients to be refused at.
@Suite struct SocketUnitTests {
  @Test func stoppingTheSocketRemovesItsFile() throws {
    let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("deploy")
    let text = try String(contentsOf: deploy.appendingPathComponent("chimed.socket"), encoding: .utf8)
    var section = ""
    var settings: [String: String] = [:]
    for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.hasPrefix("#") {
      if line.hasPrefix("[") { section = line; continue }
      guard section == "[Socket]", let equals = line.firstIndex(of: "=") else { continue }
      settings[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    #expect(settings["RemoveOnStop"] == "yes", "chimed.socket's [Socket]: \(settings)")
  }
}
