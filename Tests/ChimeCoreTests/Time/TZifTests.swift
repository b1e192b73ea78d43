@testable import ChimeCore
import Foundation
import Testing

/// The TZif reader (RFC 8536) and the footer's POSIX rule, on the system's tzdata and on files
/// written here, and the zoneinfo tree's identifier checks.
@Suite struct TZifTests {
  /// Seconds since the epoch of a UTC date-time.
  static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
    Int64(CivilDate.dayNumber(year: year, month: month, day: day)) * 86_400 + Int64(hour * 3600 + minute * 60)
  }

  static func offset(_ zone: String, _ t: Int64) throws -> Int {
    try #require(Zone.named(zone), "\(zone) in /usr/share/zoneinfo").table.offset(at: t)
  }

  /// A version 2 TZif file: an empty 32-bit block, then the 64-bit data and the footer.
  static func file(version: UInt8 = UInt8(ascii: "2"), times: [Int64] = [], indices: [UInt8] = [],
                   types: [(Int32, Bool)] = [(0, false)], footer: String = "UTC0", leaps: Int = 0) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    func be64(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> (56 - 8 * $0)) } }
    func header(_ counts: [Int]) -> [UInt8] {
      Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + counts.flatMap { be32(UInt32($0)) }
    }
    var bytes = header([0, 0, 0, 0, 1, 1]) + [0, 0, 0, 0, 0, 0] + [0]
    bytes += header([0, 0, leaps, times.count, types.count, 4])
    bytes += times.flatMap(be64) + indices
    bytes += types.flatMap { be32(UInt32(bitPattern: $0.0)) + [$0.1 ? 1 : 0, 0] }
    bytes += Array("XXX\0".utf8)
    bytes += (0..<leaps).flatMap { _ in be64(0) + be32(1) }
    return bytes + Array("\n\(footer)\n".utf8)
  }

  // MARK: The system's tzdata

  @Test func theFooterRuleGoesOnAfter2037() throws {
    // Berlin: CEST from the last Sunday of March to the last Sunday of October, 01:00 UTC.
    #expect(try Self.offset("Europe/Berlin", Self.utc(2100, 1, 15)) == 3600)
    #expect(try Self.offset("Europe/Berlin", Self.utc(2100, 7, 15)) == 7200)
    // 2100-03-28 is the last Sunday of March.
    #expect(try Self.offset("Europe/Berlin", Self.utc(2100, 3, 28, 1) - 1) == 3600)
    #expect(try Self.offset("Europe/Berlin", Self.utc(2100, 3, 28, 1)) == 7200)
    // Lord Howe: half an hour of DST, first Sunday of October to the first of April.
    #expect(try Self.offset("Australia/Lord_Howe", Self.utc(2150, 1, 10)) == 39_600)
    #expect(try Self.offset("Australia/Lord_Howe", Self.utc(2150, 7, 10)) == 37_800)
    // Nuuk's rule has a negative time (M3.5.0/-1): 01:00 UTC on the last Sunday of March.
    #expect(try Self.offset("America/Nuuk", Self.utc(2100, 3, 28, 1) - 1) == -7200)
    #expect(try Self.offset("America/Nuuk", Self.utc(2100, 3, 28, 1)) == -3600)
    // Troll: +02 in summer, +00 in winter.
    #expect(try Self.offset("Antarctica/Troll", Self.utc(2200, 1, 10)) == 0)
    #expect(try Self.offset("Antarctica/Troll", Self.utc(2200, 6, 10)) == 7200)
    // Past the table, read 400 years earlier: still the rule's answer.
    #expect(try Self.offset("Europe/Berlin", Self.utc(4321, 7, 1)) == 7200)
    #expect(try Self.offset("Pacific/Chatham", Self.utc(4321, 1, 1)) == 49_500)
  }

  @Test func zonesWithNoTransitions() throws {
    for t in [Self.utc(1901, 1, 1), Self.utc(2026, 6, 1), Self.utc(2300, 1, 1), Self.utc(9000, 12, 31)] {
      #expect(try Self.offset("UTC", t) == 0)
      #expect(try Self.offset("Etc/GMT+5", t) == -18_000)
      #expect(try Self.offset("Etc/GMT-14", t) == 50_400)
    }
    let gmt5 = try #require(Zone.named("Etc/GMT+5"))
    #expect(gmt5.table.transitions.isEmpty && !gmt5.table.periodic && gmt5.identifier == "Etc/GMT+5")
    #expect(Zone.utc.secondsFromUTC(at: Instant(unixMillis: 0)) == 0)
  }

  @Test func kathmandusOddOffsetAndApiasSkippedDay() throws {
    #expect(try Self.offset("Asia/Kathmandu", Self.utc(2026, 1, 1)) == 20_700)
    #expect(try Self.offset("Asia/Kathmandu", Self.utc(1980, 1, 1)) == 19_800)
    // Apia went from -10 (DST -10 = -11 + 1) to +14 at the end of 2011-12-29 local.
    #expect(try Self.offset("Pacific/Apia", Self.utc(2011, 12, 30, 10) - 1) == -36_000)
    #expect(try Self.offset("Pacific/Apia", Self.utc(2011, 12, 30, 10)) == 50_400)
  }

  // MARK: Files written here

  @Test func aFileWithOnlyAFooterFollowsItsRuleForAllTime() throws {
    let data = try TZif.parse(Self.file(footer: "CET-1CEST,M3.5.0,M10.5.0/3"))
    #expect(data.transitions.isEmpty)
    let table = ZoneTable(identifier: "Test/CET", data: data)
    #expect(table.offset(at: Self.utc(1950, 1, 10)) == 3600)
    #expect(table.offset(at: Self.utc(1950, 7, 10)) == 7200)
    #expect(table.offset(at: Self.utc(2600, 7, 10)) == 7200)
  }

  @Test func aFooterForPermanentDaylightTimeHasNoTransitions() throws {
    // tzcode's form for DST all year: from 1 January 00:00 to 31 December 25:00.
    let data = try TZif.parse(Self.file(types: [(-14_400, true)], footer: "EST5EDT4,0/0,J365/25"))
    let table = ZoneTable(identifier: "Test/Permanent", data: data)
    #expect(table.transitions.isEmpty, "\(table.transitions.prefix(4))")
    #expect(table.offset(at: Self.utc(2030, 1, 1)) == -14_400)
  }

  @Test func transitionsThenTheFooter() throws {
    let times = [Self.utc(1990, 3, 25, 1), Self.utc(1990, 9, 30, 1)]
    let data = try TZif.parse(Self.file(times: times, indices: [1, 0], types: [(3600, false), (7200, true)],
                                        footer: "CET-1CEST,M3.5.0,M10.5.0/3"))
    #expect(data.transitions == times && data.offsets == [3600, 7200, 3600])
    let table = ZoneTable(identifier: "Test/Zone", data: data)
    #expect(table.offset(at: Self.utc(1990, 6, 1)) == 7200)
    #expect(table.offset(at: Self.utc(1990, 10, 1)) == 3600)
    // 1991 comes from the footer: the last Sunday of March is the 31st.
    #expect(table.offset(at: Self.utc(1991, 3, 31, 1) - 1) == 3600)
    #expect(table.offset(at: Self.utc(1991, 3, 31, 1)) == 7200)
  }

  /// Found by the tzif fuzz target: a transition past the table's end (year 3000) with a DST
  /// footer asked for footer years from 3000 down to 2503, a range that traps.
  @Test func aTransitionPastTheTableWithADaylightFooter() throws {
    for last in [Self.utc(3000, 1, 1), Int64.max, ZoneTable.tableEnd, ZoneTable.tableEnd - 1] {
      let data = try TZif.parse(Self.file(times: [Self.utc(1990, 1, 1), last], indices: [1, 0],
                                          types: [(3600, false), (7200, true)], footer: "CET-1CEST,M3.5.0,M10.5.0/3"))
      let table = ZoneTable(identifier: "Test/Late", data: data)
      #expect(table.offset(at: Self.utc(2026, 7, 1)) == 7200)
      let noDaylight = try TZif.parse(Self.file(times: [last], indices: [0], types: [(3600, false)], footer: "<+02>-2"))
      #expect(ZoneTable(identifier: "Test/LateFixed", data: noDaylight).offset(at: Self.utc(2026, 7, 1)) == 3600)
    }
  }

  struct Malformed: CustomTestStringConvertible, Sendable {
    var bytes: [UInt8]
    var reason: String
    var testDescription: String { reason }
  }

  static let malformed: [Malformed] = {
    var cases: [Malformed] = []
    func add(_ bytes: [UInt8], _ reason: String) { cases.append(Malformed(bytes: bytes, reason: reason)) }
    add(Array("TZi".utf8), "truncated")
    add(Array("TZxf".utf8) + [UInt8](repeating: 0, count: 60), "bad magic")
    add(file(version: 0), "version 1")
    add(file(version: UInt8(ascii: "A")), "unknown TZif version")
    add(file(times: [0], indices: [3]), "type index 3 out of range")
    add(file(times: [10, 10], indices: [0, 0]), "not increasing")
    add(file(types: []), "no local time types")
    add(file(types: [(100_000, false)]), "out of range")
    add(file(leaps: 1), "leap-second")
    add(file(footer: "CET-1CEST,M3.5.0"), "footer")
    add(file(footer: "CET-1CEST,M13.5.0,M10.5.0"), "footer")
    add(file(footer: "C-1"), "footer")
    add(Array(file().dropLast(2)), "footer")
    add(Array(file().prefix(80)), "truncated")
    // A header claiming a million transitions in a file of a few bytes.
    var huge = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 27)
    huge += [0, 0x0f, 0xff, 0xff] + [UInt8](repeating: 0, count: 8)
    add(huge, "truncated")
    return cases
  }()

  @Test(arguments: malformed)
  func aMalformedFileIsRefusedWithAReason(_ c: Malformed) {
    #expect {
      _ = try TZif.parse(c.bytes)
    } throws: { error in
      (error as? TZifError).map { $0.reason.contains(c.reason) } ?? false
    }
  }

  @Test func everyPrefixOfARealFileIsRefusedWithoutACrash() throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))
    #expect(throws: Never.self) { _ = try TZif.parse(bytes) }
    for n in 0..<bytes.count {
      #expect(throws: TZifError.self) { _ = try TZif.parse(Array(bytes.prefix(n))) }
    }
  }

  // MARK: The zoneinfo tree

  @Test(arguments: ["../etc/passwd", "/etc/passwd", "Europe/../Europe/Berlin", "Europe//Berlin", "./UTC", "Europe/Berlin/",
                    "", "Europe/Berlin\0", "Europe/Ber lin", "posix/Europe/Berlin", "right/UTC", "posixrules", "localtime",
                    "zone.tab", "Europe", String(repeating: "A", count: 256)])
  func namesThatAreNoZonesAreRefused(name: String) {
    #expect(Zone.named(name) == nil)
  }

  @Test func aMalformedFileInTheTreeIsRefusedWithItsReason() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tzif-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("Test"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(Self.file(footer: "<+0530>-5:30")).write(to: root.appendingPathComponent("Test/Good"))
    try Data(Array(Self.file().prefix(50))).write(to: root.appendingPathComponent("Test/Cut"))
    let directory = ZoneDirectory(root: root.path)
    #expect(directory.zone(named: "Test/Good")?.secondsFromUTC(at: Instant(unixMillis: 0)) == 19_800)
    #expect(throws: ZoneDirectory.LookupError.self) { _ = try directory.load("Test/Cut") }
    do {
      _ = try directory.load("Test/Cut")
    } catch {
      #expect(error.reason.contains("Test/Cut") && error.reason.contains("truncated"), "\(error)")
    }
    #expect(directory.zone(named: "Test/Missing") == nil)
    // UTC is known even where the tree has no file for it.
    #expect(directory.zone(named: "UTC")?.secondsFromUTC(at: Instant(unixMillis: 0)) == 0)
  }
}
