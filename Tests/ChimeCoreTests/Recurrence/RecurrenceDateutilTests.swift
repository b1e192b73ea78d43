import ChimeCore
import Foundation
import Testing

/// The engine against python-dateutil's `rrule`/`rruleset` (an independent implementation,
/// localized with zoneinfo and fold=0, which is RFC 5545's rule at clock changes) on random
/// rules in odd zones: Lord Howe (30-minute DST), Chatham (+12:45), Apia (the skipped
/// 2011-12-30), Troll (+00/+02), Kathmandu (+05:45), St. John's, São Paulo, and US/EU zones.
///
/// scripts/rrule/dateutil_oracle.py makes the cases and dateutil's answers; this test runs it
/// (RRULE_ORACLE_CASES cases, 200 by default; `make test-rrule` runs thousands) and compares,
/// for each case, the first occurrences in wall-time order and the next fires after an instant.
@Suite struct RecurrenceDateutilTests {
  struct Case: Decodable {
    var id: Int
    var rule: String
    var start: String
    var zone: String
    var exclusions: [String]
    var horizon: String
    var occurrences: [[Occurrence]]
    var complete: Bool
    var after: Int64
    var next: [Int64]
    var trusted_below: Int64?
  }

  /// `["2026-04-24T02:30:00", 1777...]`: a wall time or an instant.
  enum Occurrence: Decodable, Equatable {
    case wall(String)
    case instant(Int64)
    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let s = try? c.decode(String.self) { self = .wall(s) } else { self = .instant(try c.decode(Int64.self)) }
    }
  }

  static func cases() throws -> [Case] {
    let decoder = JSONDecoder()
    if let file = ProcessInfo.processInfo.environment["RRULE_ORACLE_FILE"] {
      // Cases made beforehand (`scripts/rrule/dateutil_oracle.py --cases N > FILE`).
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Case.self, from: Data($0)) }
    }
    let count = ProcessInfo.processInfo.environment["RRULE_ORACLE_CASES"] ?? "200"
    let seed = ProcessInfo.processInfo.environment["RRULE_ORACLE_SEED"] ?? "5545"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", RecurrenceTestFiles.oracleScript, "--cases", count, "--seed", seed]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Issue.record("dateutil_oracle.py failed with status \(process.terminationStatus) (is python3-dateutil installed?)")
      return []
    }
    return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Case.self, from: Data($0)) }
  }

  @Test("engine agrees with python-dateutil") func agreesWithDateutil() throws {
    let cases = try Self.cases()
    #expect(cases.count >= 100)
    let clock = ContinuousClock()
    let started = clock.now
    var mismatches = 0
    var gapOrOverlap = 0
    var excluded = 0
    for c in cases {
      let recurrence = try Recurrence(rule: c.rule, start: c.start, timeZone: c.zone, exclusions: c.exclusions)
      let zone = try #require(Zone.named(c.zone))
      let horizon = try #require(LocalDateTime(parsing: c.horizon))
      if !c.exclusions.isEmpty { excluded += 1 }
      // What the rule makes, in wall-time order, cut where dateutil was stopped.
      let expected = c.occurrences.map { pair -> (String, Int64) in
        guard case .wall(let w) = pair[0], case .instant(let t) = pair[1] else { return ("", 0) }
        return (w, t)
      }
      var made: [(String, Int64)] = []
      for occurrence in RecurrenceEngine.occurrences(count: expected.count + 1, through: horizon, recurrence: recurrence, zone: zone) {
        made.append((occurrence.wall.description, occurrence.fire.instant.unixMillis / 1000))
        if occurrence.fire.dstNote != nil { gapOrOverlap += 1 }
      }
      if !c.complete && made.count > expected.count { made.removeLast(made.count - expected.count) }
      let same = made.count == expected.count && zip(made, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
      if !same {
        mismatches += 1
        if mismatches <= 10 {
          Issue.record("""
            case \(c.id): \(c.rule) from \(c.start) in \(c.zone) excluding \(c.exclusions)
              dateutil: \(expected.prefix(8).map { "\($0.0)=\($0.1)" })
              chime:    \(made.prefix(8).map { "\($0.0)=\($0.1)" })
            """)
        }
        continue
      }
      // The next fires after an instant, as the scheduler asks.
      let fires = RecurrenceEngine.nextFires(after: Instant(unixMillis: c.after * 1000), count: c.next.count + 1,
                                             recurrence: recurrence, zone: zone)
      var got = fires.map { $0.instant.unixMillis / 1000 }
      if let bound = c.trusted_below { got = got.filter { $0 < bound } }
      got = Array(got.prefix(c.next.count))
      if got != c.next {
        mismatches += 1
        if mismatches <= 10 {
          Issue.record("case \(c.id): \(c.rule) from \(c.start) in \(c.zone): next after \(c.after): dateutil \(c.next), chime \(got)")
        }
      }
    }
    print("dateutil cross-check: \(cases.count) rules, \(mismatches) mismatches, \(gapOrOverlap) occurrences decided by a clock change, "
      + "\(excluded) with exclusions; Chime took \(clock.now - started)")
    #expect(mismatches == 0)
    #expect(gapOrOverlap >= cases.count / 20, "too few occurrences met a clock change for the check to mean much")
  }
}

enum RecurrenceTestFiles {
  static let oracleScript: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // this file, Recurrence, ChimeCoreTests, Tests
    return url.appendingPathComponent("scripts/rrule/dateutil_oracle.py").path
  }()
}
