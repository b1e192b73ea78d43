@testable import ChimeCore
import Foundation
import Testing

/// Chime's zone tables against Python's zoneinfo (scripts/zones/zoneinfo_oracle.py), an
/// independent reader of the same TZif files: at every transition, every few days from 1900 to
/// 2500 and at instants past the table. `make test` checks the odd zones and every 15th zone
/// Python knows; `make check-zones` (ZONEINFO_ORACLE_ZONES=all) every zone, day by day.
@Suite struct ZoneinfoOracleTests {
  static let script: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // this file, Time, ChimeCoreTests, Tests
    return url.appendingPathComponent("scripts/zones/zoneinfo_oracle.py").path
  }()

  static let oddZones = [
    "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Apia", "Antarctica/Troll", "Asia/Kathmandu", "America/Nuuk",
    "Asia/Jerusalem", "Africa/Casablanca", "America/Sao_Paulo", "Europe/Dublin", "Pacific/Kiritimati", "Asia/Tehran",
    "America/Santiago", "Pacific/Easter", "America/Asuncion", "Europe/Berlin", "America/New_York", "Asia/Gaza",
    "Africa/Cairo", "Australia/Adelaide", "Europe/Moscow", "America/Scoresbysund", "Etc/GMT+5", "UTC",
  ]

  static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script] + arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func zoneTablesAgreeWithPythonsZoneinfo() throws {
    let environment = ProcessInfo.processInfo.environment
    let listed = try Self.run(["--list"])
    try #require(listed.status == 0, "zoneinfo_oracle.py --list failed (python3 3.9+ with zoneinfo?)")
    // /usr/share/zoneinfo/localtime links to /etc/localtime: the machine's zone, not a zone name.
    let all = listed.output.split(separator: "\n").map(String.init).filter { $0 != "localtime" }
    let full = environment["ZONEINFO_ORACLE_ZONES"] == "all"
    let zones = full ? all : Self.oddZones + all.enumerated().filter { $0.offset % 15 == 0 }.map(\.element)
    let step = environment["ZONEINFO_ORACLE_STEP_DAYS"] ?? (full ? "1" : "5")

    var dump = ""
    var rng = SystemRandomNumberGenerator()
    for id in zones {
      guard let zone = Zone.named(id) else {
        Issue.record("\(id): Python's zoneinfo knows it, Zone.named does not")
        continue
      }
      let table = zone.table
      dump += "Z \(id)\nO \(table.offsets[0])\n"
      for (k, t) in table.transitions.enumerated() where t < ZoneTable.periodicFrom {
        dump += "T \(t) \(table.offsets[k + 1])\n"
      }
      // Past 2500 the table reads 400 years earlier; Python applies the footer rule itself.
      for _ in 0..<40 {
        let t = Int64.random(in: ZoneTable.periodicFrom..<230_000_000_000, using: &rng)
        dump += "P \(t) \(zone.secondsFromUTC(at: Instant(unixMillis: t * 1000)))\n"
      }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString).txt")
    try dump.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let checked = try Self.run(["--check", file.path, "--step-days", step])
    print(checked.output, terminator: "")
    #expect(checked.status == 0, "\(checked.output.split(separator: "\n").prefix(10).joined(separator: "\n"))")
    #expect(checked.output.contains("\(zones.count) zones compared"))
  }
}
