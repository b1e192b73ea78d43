@testable import ChimeServer
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// The scan figure of issue 41 through the whole in-process daemon: a vdir of 20,000 events
/// (one in ten weekly for a year, spread over ten years around now) registered, rescanned whole,
/// and one edited file picked up. Prints the times and the test process's RSS. Run with
/// `CHIME_CALENDAR_BENCH=1 swift test --skip-build --filter CalendarScanBenchmark` (COUNT from
/// CHIME_CALENDAR_BENCH_COUNT).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CHIME_CALENDAR_BENCH"] != nil))
struct CalendarScanBenchmark {
  static func rss() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").filter { $0.hasPrefix("VmRSS") || $0.hasPrefix("VmHWM") }
      .map { $0.split(whereSeparator: \.isWhitespace).dropFirst().joined(separator: " ") }.joined(separator: " / ")
  }

  @Test func twentyThousandEvents() async throws {
    let count = Int(ProcessInfo.processInfo.environment["CHIME_CALENDAR_BENCH_COUNT"] ?? "") ?? 20_000
    let d = try InProcessDaemon()
    let dir = d.directory.file("vdir")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let now = d.clock.now().unixMillis
    let span: Int64 = 10 * 365 * 86_400_000
    for i in 0..<count {
      let start = Instant(unixMillis: (now - span / 2 + Int64(i) * (span / Int64(count))) / 1000 * 1000)
      try calendarItem(uid: "event-\(i)", summary: "Event \(i)", start: start, location: "Room \(i % 40)",
                       rule: i % 10 == 0 ? "FREQ=WEEKLY;COUNT=52" : nil)
        .write(toFile: dir + "/event-\(i).ics", atomically: false, encoding: .utf8)
    }
    print("calendar bench: \(count) items written; RSS/HWM before: \(Self.rss())")
    let clock = ContinuousClock()
    var source: CalendarSource?
    let added = try await clock.measure { source = try await d.addCalendar("bench", path: dir) }
    print("calendar bench: add (whole scan and commit): \(added); items \(source?.itemCount ?? 0), alarms \(source?.alarmCount ?? 0); RSS/HWM: \(Self.rss())")
    let synced = try await clock.measure {
      let _: [CalendarSource] = try await d.calendars { service, reply in service.sync(name: "bench", reply: reply) }
    }
    print("calendar bench: sync (whole rescan, nothing changed): \(synced); RSS/HWM: \(Self.rss())")
    let edited = try await clock.measure {
      try writeItem(calendarItem(uid: "new", summary: "New", start: Instant(unixMillis: now + 3_600_000)), "new.ics", in: dir)
      try await eventually { try await d.calendarPending("bench").contains { $0.request.content.title == "New" } }
    }
    print("calendar bench: one new file seen through inotify: \(edited); RSS/HWM: \(Self.rss())")
  }
}
