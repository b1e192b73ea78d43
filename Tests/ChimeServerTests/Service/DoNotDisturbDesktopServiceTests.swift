import ChimeClient
import ChimeCore
import ChimeServer
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Following the desktop and the summary when Do Not Disturb ends, through the whole daemon
/// with a manual clock and a fake desktop; what is shown is read from the command presenter's
/// record (one JSON object per line).
@Suite(.testTimeLimit) struct DoNotDisturbDesktopServiceTests {
  struct Running {
    let daemon: InProcessDaemon
    let desktop: FakeDesktop
    let out: String
    let dir: TemporaryDirectory
  }

  func start(desktop: FakeDesktop = FakeDesktop(), clock: ManualWallClock = ManualWallClock()) throws -> Running {
    let dir = TemporaryDirectory()
    let out = dir.file("shown.jsonl")
    let d = try InProcessDaemon(clock: clock) { configuration in
      configuration.collaborators.presentation.presenters = [.command]
      configuration.collaborators.presentation.command = ["/bin/sh", "-c", "cat >> \"$0\" && echo >> \"$0\"", out]
      configuration.hooks.timeZone = { .utc }
      configuration.hooks.desktopQuiet = desktop
    }
    return Running(daemon: d, desktop: desktop, out: out, dir: dir)
  }

  static func shown(_ path: String) -> [[String: Any]] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
  }

  static func summaries(_ path: String) -> [String] {
    shown(path).filter { $0["identifier"] as? String == DoNotDisturbSummary.identifier }.compactMap { $0["body"] as? String }
  }

  /// Polls GetDoNotDisturb (the desktop's state reaches the loop asynchronously).
  func waitForSource(_ user: ChimeClient, _ source: DoNotDisturbSource?) async throws -> DoNotDisturbReport {
    for _ in 0..<500 {
      let report = try await user.doNotDisturb()
      if report.status.source == source { return report }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw DesktopError("Do Not Disturb's source never became \(source?.rawValue ?? "none")")
  }

  func waitForSummaries(_ run: Running, count: Int) throws -> [String] {
    try #require(pollUntil(within: 10) { Self.summaries(run.out).count >= count }, "\(Self.shown(run.out))")
    return Self.summaries(run.out)
  }

  @Test func aPausedDesktopDeliversQuietlyAndItsEndShowsOneSummary() async throws {
    let run = try start()
    let tea = try run.daemon.client(app: "org.example.tea")
    let mail = try run.daemon.client(app: "org.example.mail")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await tea.registerApp(displayName: "Tea Timer")

    run.desktop.set(.dunstPaused)
    let paused = try await waitForSource(user, .desktop)
    #expect(paused.status == DoNotDisturbStatus(active: true, source: .desktop, until: nil, nextStart: nil, desktop: .dunstPaused))
    #expect(try await tea.add(.tea("one", in: nil)).delivered?.quiet == true)
    #expect(try await tea.add(.tea("two", in: nil)).delivered?.quiet == true)
    let last = try await mail.add(.tea("mail", in: nil)).delivered
    #expect(last?.quiet == true)
    #expect(Self.shown(run.out).isEmpty)

    run.desktop.set(nil)
    _ = try await waitForSource(user, nil)
    let summaries = try waitForSummaries(run, count: 1)
    #expect(summaries == ["3 notifications while Do Not Disturb was on: Tea Timer (2), org.example.mail"])
    let popup = try #require(Self.shown(run.out).first)
    #expect(popup["title"] as? String == DoNotDisturbSummary.title && popup["app"] as? String == "chime:do-not-disturb")
    #expect(popup["appName"] as? String == "Chime", "\(popup)")
    // Not a delivered notification of any app.
    #expect(try await user.delivered().items.isEmpty)

    // Paused and resumed with nothing delivered meanwhile: no summary; the next one with a
    // delivery counts only that one (the three were summarized).
    run.desktop.set(.kdeInhibited)
    #expect(try await waitForSource(user, .desktop).status.desktop == .kdeInhibited)
    run.desktop.set(nil)
    _ = try await waitForSource(user, nil)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await mail.add(.tea("later", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 2) == [summaries[0], "1 notification while Do Not Disturb was on: org.example.mail"])
  }

  /// A manual until and a schedule window end with the clock, with no call: the summary comes
  /// at that instant.
  @Test func aManualUntilAndAWindowEndingShowTheSummaryThen() async throws {
    // 2027-03-01 is a Monday; 21:00 UTC.
    let run = try start(clock: ManualWallClock(Instant(unixMillis: 1_803_934_800_000)))
    let tea = try run.daemon.client(app: "org.example.tea")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: run.daemon.clock.now().adding(seconds: 600))))
    #expect(try await tea.add(.tea("a", in: nil)).delivered?.quiet == true)
    run.daemon.advance(seconds: 599)
    #expect(try await user.doNotDisturb().status.active)
    #expect(Self.summaries(run.out).isEmpty)
    run.daemon.advance(seconds: 1)
    #expect(try waitForSummaries(run, count: 1) == ["1 notification while Do Not Disturb was on: org.example.tea"])

    _ = try await user.setDoNotDisturb(DoNotDisturbChange(schedule: .set(try DoNotDisturbSchedule.parse("22:00-23:00"))))
    run.daemon.advance(seconds: 3000)  // 22:00
    #expect(try await user.doNotDisturb().status.source == .schedule)
    #expect(try await tea.add(.tea("b", in: nil)).delivered?.quiet == true)
    #expect(try await tea.add(.tea("c", in: nil)).delivered?.quiet == true)
    run.daemon.advance(seconds: 3600)  // 23:00
    #expect(try waitForSummaries(run, count: 2).last == "2 notifications while Do Not Disturb was on: org.example.tea (2)")
  }

  @Test func notFollowingTheDesktopDeliversAsUsual() async throws {
    let run = try start(desktop: FakeDesktop(.dunstPaused))
    let tea = try run.daemon.client(app: "org.example.tea")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await waitForSource(user, .desktop)
    let off = try await user.setDoNotDisturb(DoNotDisturbChange(followDesktop: false))
    #expect(off.status == .inactive && !off.setting.followDesktop)
    let delivered = try await tea.add(.tea("shown", in: nil)).delivered
    #expect(delivered?.quiet == false)
    try #require(pollUntil(within: 10) { Self.shown(run.out).contains { $0["identifier"] as? String == "shown" } })
    // Kept across a restart.
    try run.daemon.restart()
    let again = try run.daemon.client(app: "chime.cli")
    #expect(try await again.doNotDisturb().setting.followDesktop == false)
    #expect(try await run.daemon.client(app: "org.example.tea").add(.tea("still", in: nil)).delivered?.quiet == false)
    #expect(try await again.setDoNotDisturb(DoNotDisturbChange(followDesktop: true)).status.source == .desktop)
  }

  @Test func summaryOffShowsNoneAndItsDeliveriesAreNotCountedLater() async throws {
    let run = try start()
    let tea = try run.daemon.client(app: "org.example.tea")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil), summary: false))
    #expect(try await tea.add(.tea("a", in: nil)).delivered?.quiet == true)
    #expect(try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off)).setting.summary == false)
    run.daemon.advance(seconds: 1)
    // On again with the summary: only what arrives now is counted.
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil), summary: true))
    #expect(try await tea.add(.tea("b", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 1) == ["1 notification while Do Not Disturb was on: org.example.tea"])
  }

  /// Each quiet delivery is counted once, whatever the wall clock did: set back an hour after a
  /// summary, the deliveries of the next window (earlier on the clock than the first summary)
  /// are still summarized, and the first window's are not counted again.
  @Test func aClockSetBackLosesNoQuietDeliveryFromTheNextSummary() async throws {
    let run = try start()
    let tea = try run.daemon.client(app: "org.example.tea")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await tea.add(.tea("first", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 1) == ["1 notification while Do Not Disturb was on: org.example.tea"])

    run.daemon.advance(seconds: -3600)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await tea.add(.tea("second", in: nil)).delivered?.quiet == true)
    #expect(try await tea.add(.tea("third", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 2).last == "2 notifications while Do Not Disturb was on: org.example.tea (2)")
  }

  /// A window that starts in the millisecond the last summary was made counts its deliveries
  /// (no instant separates what was summarized from what was not).
  @Test func aWindowInTheSummarysMillisecondIsCounted() async throws {
    let run = try start()
    let tea = try run.daemon.client(app: "org.example.tea")
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await tea.add(.tea("a", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 1).count == 1)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await tea.add(.tea("b", in: nil)).delivered?.quiet == true)
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 2).last == "1 notification while Do Not Disturb was on: org.example.tea")
  }

  /// The count is derived from the store: a restart in the middle of the window loses nothing.
  @Test func aRestartMidWindowKeepsTheCount() async throws {
    let run = try start()
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    #expect(try await run.daemon.client(app: "org.example.tea").add(.tea("before", in: nil)).delivered?.quiet == true)
    try run.daemon.restart()
    let tea = try run.daemon.client(app: "org.example.tea")
    #expect(try await tea.add(.tea("after", in: nil)).delivered?.quiet == true)
    _ = try await run.daemon.client(app: "chime.cli").setDoNotDisturb(DoNotDisturbChange(manual: .off))
    #expect(try waitForSummaries(run, count: 1) == ["2 notifications while Do Not Disturb was on: org.example.tea (2)"])
  }

  /// Do Not Disturb that ended while chimed was stopped is summarized when it starts.
  @Test func anEndWhileStoppedIsSummarizedAtStart() async throws {
    let run = try start()
    let user = try run.daemon.client(app: "chime.cli")
    _ = try await user.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: run.daemon.clock.now().adding(seconds: 60))))
    #expect(try await run.daemon.client(app: "org.example.tea").add(.tea("a", in: nil)).delivered?.quiet == true)
    run.daemon.stop()
    run.daemon.clock.advance(seconds: 120)
    try run.daemon.restart()
    #expect(try waitForSummaries(run, count: 1) == ["1 notification while Do Not Disturb was on: org.example.tea"])
  }
}
