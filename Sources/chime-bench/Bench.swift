import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation
import Glibc

struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chime-bench",
    abstract: "Measures chimed: durable adds/s, call latency, fire lateness and memory with many pending requests.",
    discussion: """
      Starts the chimed next to this binary on a socket in a temporary directory (build both with \
      `swift build -c release`), runs each phase with bounded counts and prints the numbers.

      Example:
        .build/release/chime-bench --pending 100000
      """
  )

  @Option(help: "Sequential adds from one client.") var single = 5_000
  @Option(help: "Concurrent clients for the parallel phase.") var clients = 32
  @Option(help: "Adds in the parallel phase.") var parallel = 50_000
  @Option(help: "Pending requests to hold while measuring fire lateness and memory.") var pending = 100_000
  @Option(help: "Requests fired in the lateness phase.") var fires = 2_000
  @Option(help: "After the real adds, fill to this many pending by copying a stored request in SQL while chimed is stopped (a million in seconds, where adds take minutes); memory and the restart are then measured at this count. `make bench` uses 1000000.")
  var clonePending: Int?
  @Flag(help: "Only the calendar engine's next-fire cost (no daemon).") var calendarOnly = false
  @Flag(help: "Only the large-attachment phase.") var attachmentsOnly = false
  @Option(help: "Items of the vdir registered as a calendar in the calendar phase (0: no calendar phase).") var vdirEvents = 20_000
  @Flag(help: "Only the calendar phase (a vdir of --vdir-events items).") var calendarScanOnly = false
  @Flag(help: "Only the floors (SQLite FULL commits, the Unix-socket echo), no daemon.") var floorsOnly = false
  @Flag(help: "Only chimed's store alone (adds per transaction as --clients forms them, and one per transaction) beside the SQLite floors, no daemon: for comparing store builds.")
  var storeOnly = false
  @Flag(help: "Only gRPC against the native framing: raw adds from 1 and --clients clients both ways, and RSS with --idle-grpc idle gRPC connections.")
  var grpcOnly = false
  @Option(help: "Idle gRPC connections held while chimed's RSS is measured.") var idleGrpc = 1000
  @Option(help: "Adds of a 50 MB movie per movie client in the attachment phase.") var movies = 5
  @Option(help: "Clients adding movies at once in the attachment phase.") var movieClients = 4
  @Option(help: "chimed's attachment staging width (its default is 2; a large number means no limit).")
  var fileLaneWidth: Int?
  @Option(help: "MPEG-4 file padded to 50 MB for the attachment phase (default: the repository's fixture).")
  var movieFixture: String?
  @Option(help: "Write every figure, floor, ratio and goal, the git revision, date and machine to this JSON file.")
  var json: String?
  @Option(help: "Runs of `chime pending` and `systemctl --version` (alternating) in the whole-process phase.")
  var processRuns = 20
  @Option(help: "Rounds of the add phases: every load and floor once a round, their order rotating; figures are medians, goals judged on the middle rounds.")
  var rounds = 5
  @Option(help: "Take chimed, chime and chime-calendar from this directory instead of next to this binary: another build measured by this benchmark.")
  var programs: String?

  func run() async throws {
    // 0. The calendar engine: cost of one next-fire computation over a mixed set of component
    //    sets (Feb 29, 5th Friday, week 53, DST nights) in several zones.
    print("calendar next fire: \(CalendarBenchmark.run())")
    if calendarOnly { return }

    let directory = try BenchDirectory()
    defer { directory.remove() }
    var report = Report(revision: Revision.current(scratch: directory.path), machine: Machine.describe())
    print("chime-bench at \(report.revision) on \(report.machine), \(report.date)")
    if floorsOnly {
      let sqlite = try Floors.sqlite(in: directory.path)
      let echo = try Floors.socketEcho(in: directory.path)
      print(String(format: "floor: SQLite WAL synchronous=FULL, 64-row transactions: %.0f rows/s (%d rows); one-row commit p50 %.3f ms; Unix-socket echo round trip p50 %.3f ms (%d), %.1f µs of the client's CPU each",
                   sqlite.batchRowsPerSecond, sqlite.batchRows, sqlite.singleCommitP50Micros / 1000, echo.p50Micros / 1000, echo.count,
                   echo.clientCPUMicros))
      return
    }
    if storeOnly {
      _ = try await addRounds(daemon: nil, directory: directory.path, loads: [.sqlite, .storeMany, .storeOne], report: &report)
      report.check("chimed's store alone, \(clients) per tx", figure: "adds-store-alone-\(clients)-per-tx", floor: "sqlite-full-64-row-tx",
                   atLeast: true, bound: 0.45)
      report.check("a lone add's commit in the store alone", figure: "adds-store-alone-1-per-tx-commit-p50", floor: "sqlite-full-1-row-commit-p50",
                   atLeast: false, bound: 1.5)
      report.printChecks()
      if let json { try report.write(json: json) }
      return
    }
    let daemonArguments = fileLaneWidth.map { ["--file-lane-width", "\($0)"] } ?? []
    var daemon = try DaemonHandle.start(program("chimed"), in: directory.path, arguments: daemonArguments)
    // Stopped however the run ends, before the directory holding its data goes.
    defer { daemon.stop() }
    let measured = try await ChimeClient.connect(socketPath: daemon.socket, app: AddLoad.app).serverInfo()
    report.daemonVersion = measured.version
    print("chimed measured: \(measured.version)")
    if attachmentsOnly {
      try await attachmentPhase(daemon: daemon, directory: directory.path, report: &report)
      return
    }
    if calendarScanOnly {
      try await calendarPhase(daemon: daemon, directory: directory.path, report: &report)
      calendarChecks(&report)
      report.printChecks()
      if let json { try report.write(json: json) }
      return
    }
    if grpcOnly {
      _ = try await addRounds(daemon: daemon, directory: directory.path, loads: [.rawOne, .grpcOne, .rawMany, .grpcMany], report: &report)
      addChecks(to: &report, pending: 0)
      try idleGRPCPhase(daemon: daemon, report: &report)
      report.printChecks()
      if let json { try report.write(json: json) }
      return
    }

    // The adds and their floors (SQLite, the socket echo, chimed's store alone, Redis), in
    // rounds alternating the loads, in the same temp directory (the same file system as the
    // daemon's data): the machine is shared, its disk too, and one measurement can land in
    // someone else's burst.
    let emptyRSS = daemon.residentKiB()
    let emptyAnonymous = daemon.anonymousKiB()
    report.figure("daemon-empty-rss", Double(emptyRSS) / 1024, "MiB")
    print(String(format: "memory: empty daemon RSS %.1f MiB", Double(emptyRSS) / 1024))
    let added = try await addRounds(daemon: daemon, directory: directory.path, loads: RoundLoad.allCases, report: &report)

    // chimed's memory with idle gRPC connections.
    try idleGRPCPhase(daemon: daemon, report: &report)

    // `chime pending` as a whole process against `systemctl --version`, alternating.
    try await processPhase(daemon: daemon, directory: directory.path, report: &report)

    // 3. Fill to `pending` far-future requests.
    if pending > added {
      _ = try await AddLoad.run(socket: daemon.socket, clients: clients, total: pending - added, idPrefix: "fill")
    }
    let copiesApp = AddLoad.app + ".copies"
    if let clonePending {
      // Filled by copies while chimed is down: memory is then what a daemon holding them
      // keeps after the restart that loads them.
      let held = try await ChimeClient.connect(socketPath: daemon.socket, app: AddLoad.app).pendingCount()
      daemon.stop()
      try PendingClone.fill(database: directory.path + "/data/chime.db", from: AddLoad.app, into: copiesApp, copies: clonePending - held)
      daemon = try DaemonHandle.start(program("chimed"), in: directory.path, arguments: daemonArguments)
    }
    // Memory with everything pending, once the fill's load has passed: chimed hands freed heap
    // back a second after calls stop (IdleTrim); what stays is what the pending requests cost.
    // Measured before they are counted: listing a million through 1,000 pages leaves its own
    // residue in the pool threads' malloc arenas, shown apart below.
    try await Task.sleep(for: .milliseconds(2500))
    let fullRSS = daemon.residentKiB()
    let fullAnonymous = daemon.anonymousKiB()
    let client = try ChimeClient.connect(socketPath: daemon.socket, app: AddLoad.app)
    let copies = clonePending == nil ? 0 : try await ChimeClient.connect(socketPath: daemon.socket, app: copiesApp).pendingCount()
    let count = try await client.pendingCount() + copies
    print(String(format: "memory: %d pending RSS %.1f MiB (%.2f× empty)", count, Double(fullRSS) / 1024, Double(fullRSS) / Double(max(emptyRSS, 1))))
    report.figure("pending", Double(count), "requests")
    report.figure("daemon-rss-over-empty", Double(fullRSS - emptyRSS) / 1024, "MiB", note: "with \(count) pending")
    // The anonymous part apart: the file-backed rest moves with the code the add path touches.
    report.figure("daemon-anon-over-empty", Double(fullAnonymous - emptyAnonymous) / 1024, "MiB",
                  note: "with \(count) pending: RssAnon, chimed's own memory without the executable's pages")
    try await Task.sleep(for: .milliseconds(2500))
    let listedRSS = daemon.residentKiB()
    print(String(format: "memory: after listing all %d pending in pages of 1,000, RSS %.1f MiB", count, Double(listedRSS) / 1024))
    report.figure("daemon-rss-over-empty-after-listing-all", Double(listedRSS - emptyRSS) / 1024, "MiB",
                  note: "\(count) pending listed through ChimeClient in pages of 1,000, then 2.5 s quiet")

    // 4. Start-up with everything pending, and one request (of an app of its own) that fell due
    //    while chimed was down: how soon after the restart is it delivered?
    let restartApp = "org.chime.bench.restart"
    _ = try await ChimeClient.connect(socketPath: daemon.socket, app: restartApp).add(NotificationRequest(
      identifier: "due-while-down", content: NotificationContent(title: "Due while down"),
      trigger: .timeInterval(TimeIntervalTrigger(seconds: 1))))
    daemon.stop()
    try await Task.sleep(for: .milliseconds(1500))  // until it is past due (wall time, not measured)
    let startClock = ContinuousClock.now
    daemon = try DaemonHandle.start(program("chimed"), in: directory.path, arguments: daemonArguments)
    let startup = ContinuousClock.now - startClock
    var restartEvents = try ChimeClient.connect(socketPath: daemon.socket, app: restartApp).subscribe(after: 0).makeAsyncIterator()
    while let event = try await restartEvents.next(), !(event.kind == .delivered && event.identifiers == ["due-while-down"]) {}
    let firstFire = ContinuousClock.now - startClock
    print("startup: \(count) pending, listening after \(startup.formatted(.units(allowed: [.milliseconds]))), the request due while down delivered after \(firstFire.formatted(.units(allowed: [.milliseconds])))")
    report.figure("restart-to-listening", startup.seconds * 1000, "ms", note: "with \(count) pending")
    report.figure("restart-to-first-due-fire", firstFire.seconds * 1000, "ms",
                  note: "with \(count) pending: start of chimed to a subscriber seeing the delivery of a request due while it was down")
    let restartedRSS = daemon.residentKiB()
    print(String(format: "memory: after restart with %d pending RSS %.1f MiB (%.2f× empty)", count, Double(restartedRSS) / 1024, Double(restartedRSS) / Double(max(emptyRSS, 1))))
    report.figure("daemon-rss-over-empty-after-restart", Double(restartedRSS - emptyRSS) / 1024, "MiB", note: "with \(count) pending")

    // 5. Fire lateness with all of that pending.
    let lateness = try await FireLateness.run(socket: daemon.socket, fires: fires)
    lateness.print()
    let wake = "due instant to the timer's wake for it (the delivery's fire_lateness_us)"
    report.figure("fire-lateness-daemon-p50", lateness.daemonLatenessMillis.percentile(0.5), "ms", note: wake)
    report.figure("fire-lateness-daemon-p99", lateness.daemonLatenessMillis.percentile(0.99), "ms", note: wake)
    report.figure("fire-lateness-seen-p50", lateness.observedLatenessMillis.percentile(0.5), "ms")
    report.figure("fire-lateness-seen-p99", lateness.observedLatenessMillis.percentile(0.99), "ms")

    // 6. 50 MB attachments being added do not hold up other clients.
    try await attachmentPhase(daemon: daemon, directory: directory.path, report: &report)

    // 7. A 20,000-item calendar registered, read again whole, one item edited.
    try await calendarPhase(daemon: daemon, directory: directory.path, report: &report)

    addChecks(to: &report, pending: count)
    calendarChecks(&report)
    report.printChecks()
    printStoreContext(report)
    printClientContext(report)
    if let json { try report.write(json: json) }
  }
}
