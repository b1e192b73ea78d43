import ChimeTestSupport
import Foundation
import Testing

/// `chime next`: the built `chime` binary, no daemon.
@Suite(.testTimeLimit) struct NextCLITests {
  func next(_ arguments: [String]) throws -> ChimeCLI.Run {
    try ChimeCLI.run(["next"] + arguments, timeout: 30)
  }

  func utc(_ run: ChimeCLI.Run) throws -> [String] {
    try #require(run.objects, "not a JSON array: \(run.stdout) \(run.stderr)").compactMap { $0["utc"] as? String }
  }

  @Test func limitWithoutRepeatsPrintsOneInstantAndSaysWhy() throws {
    let once = try next(["--calendar", "weekday=mon,hour=9,minute=30", "--tz", "Europe/Berlin",
                         "--after", "2026-01-01T00:00:00Z", "--limit", "5", "--json"])
    #expect(once.status == 0)
    #expect(try utc(once) == ["2026-01-05T08:30:00Z"])
    #expect(once.stderr.contains("without --repeats the trigger fires once"), "\(once.stderr)")

    let repeating = try next(["--calendar", "weekday=mon,hour=9,minute=30", "--tz", "Europe/Berlin",
                              "--after", "2026-01-01T00:00:00Z", "--limit", "5", "--repeats", "--json"])
    #expect(try utc(repeating).count == 5)
    #expect(repeating.stderr.isEmpty, "\(repeating.stderr)")

    // No --limit asked for: one instant, nothing to explain.
    let plain = try next(["--calendar", "hour=9", "--tz", "UTC", "--after", "2026-01-01T00:00:00Z", "--json"])
    #expect(try utc(plain) == ["2026-01-01T09:00:00Z"])
    #expect(plain.stderr.isEmpty, "\(plain.stderr)")

    // --count is the trigger's end, as for chime add: it needs --repeats.
    let count = try next(["--calendar", "hour=9", "--count", "5"])
    #expect(count.status == 64 && count.stderr.contains("--until and --count go with --repeats"), "\(count.stderr)")
  }

  @Test func gapOccurrenceFromOneSecondBeforeTheJump() throws {
    let run = try next(["--calendar", "hour=2,minute=30", "--tz", "Europe/Berlin", "--after", "2021-03-28T00:59:59Z",
                        "--count", "2", "--repeats", "--json"])
    #expect(try utc(run) == ["2021-03-28T01:00:00Z", "2021-03-29T00:30:00Z"])
  }

  @Test func hourFreePatternFollowsRealTimeWhateverTheFlags() throws {
    for flags in [[], ["--dst-gap", "skip"], ["--dst-gap", "next", "--dst-overlap", "both"]] {
      let run = try next(["--calendar", "minute=30", "--tz", "America/New_York", "--after", "2012-03-11T06:00:00Z",
                          "--count", "2", "--repeats", "--json"] + flags)
      #expect(try utc(run) == ["2012-03-11T06:30:00Z", "2012-03-11T07:30:00Z"], "\(flags)")
    }
  }
}
