import ChimeClient
import ChimeCore
import Foundation
import Glibc

/// Crash rounds: the real `chimed` under load — clients adding, removing and listing, one-shot
/// requests firing every second, repeating ones every minute, attachments staging — killed with
/// SIGKILL at a seeded random moment and started again, round after round. After each restart
/// the promises are checked against what the clients were told (`Ledger`):
///
/// - every acknowledged add is pending or was delivered (an add with no answer may go either way);
/// - nothing whose removal was acknowledged is pending or delivered after the removal;
/// - no (request, due instant) is delivered twice; a one-shot is delivered at most once, and a
///   repeating request's deliveries follow its minute grid (a gap only when marked missed);
/// - the attachment store holds exactly the files the pending and delivered rows name;
/// - `PRAGMA integrity_check` says ok on the database chimed was killed over.
///
/// The deliveries are counted from the stored event log (Subscribe after the last cursor seen),
/// which is written in the same transaction as each fire.
public final class CrashRounds: @unchecked Sendable {
  public struct Options: Sendable {
    public var rounds = 5
    public var seed: UInt64 = 0xC0FFEE
    public var clients = 32
    /// Each round runs this long (seconds, chosen per round) before SIGKILL.
    public var runSeconds: ClosedRange<Double> = 0.4...2.5
    /// Each kill is a power cut: the database files lose every write since their last sync
    /// (`WriteCut`) before chimed starts again.
    public var powerCut = false
    public init() {}

    /// Rounds from the environment variable `roundsVariable` (else `rounds`) and the seed from
    /// `CHIME_CRASH_SEED`: what `make test-crash` passes to the crash and power-cut suites.
    public static func fromEnvironment(roundsVariable: String, rounds: Int) -> Options {
      let environment = ProcessInfo.processInfo.environment
      var options = Options()
      options.rounds = environment[roundsVariable].flatMap(Int.init) ?? rounds
      if let seed = environment["CHIME_CRASH_SEED"].flatMap({ UInt64($0) }) { options.seed = seed }
      return options
    }
  }

  public struct Report: Sendable {
    public var rounds = 0
    public var failures: [String] = []
    public var ackedAdds = 0
    public var ackedRemoves = 0
    public var uncertain = 0
    public var deliveries = 0
    public var missedDeliveries = 0
    public var attachmentsStored = 0
    public var seconds = 0.0
    /// Power cuts: rounds where the shim saw chimed's writes, and what the cuts took back.
    public var cutRoundsActive = 0
    public var cutRecords = 0
    public var cutBytesRestored = 0
  }

  enum Kind { case oneShot, repeating }

  struct Added { var kind: Kind; var attachment: Bool }

  /// What the clients were told, shared by the workers (under `lock`).
  final class Ledger: @unchecked Sendable {
    let lock = NSLock()
    var acked: [String: Added] = [:]
    /// Sent without an answer (the daemon died first): either outcome is allowed.
    var uncertainAdds: [String: Added] = [:]
    /// Refused with a status: must never appear.
    var refused: Set<String> = []
    /// Acknowledged as removed (the identifiers the daemon said it removed).
    var removed: Set<String> = []
    var uncertainRemoves: Set<String> = []
    var unexpectedErrors: [String] = []

    func with<T>(_ body: (Ledger) -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body(self)
    }
  }

  struct Delivery { var due: Instant; var missed: Bool; var cursor: UInt64 }

  let options: Options
  let directory: TemporaryDirectory
  let app = "org.example.crash"
  let ledger = Ledger()
  var deliveries: [String: [Delivery]] = [:]
  var removalCursor: [String: UInt64] = [:]
  var cursor: UInt64 = 0
  var report = Report()
  var daemon: DaemonProcess
  let cut: WriteCut?

  public init(options: Options, directory: TemporaryDirectory) throws {
    self.options = options
    self.directory = directory
    cut = options.powerCut ? WriteCut(logDirectory: directory.file("undo"), dataDirectory: directory.file("data")) : nil
    daemon = try Self.makeDaemon(directory, cut: cut)
  }

  static func makeDaemon(_ directory: TemporaryDirectory, cut: WriteCut?) throws -> DaemonProcess {
    DaemonProcess(directory: directory, arguments: ["--apps-dir", directory.file("apps"), "--presenter", "none",
                                                    "--sound-player", "none"],
                  environment: try cut?.environment() ?? [:])
  }

  public func run() async throws -> Report {
    let started = Date()
    var rng = SplitMix64(seed: options.seed)
    try daemon.start()
    for round in 0..<options.rounds {
      let seconds = Double.random(in: options.runSeconds, using: &rng)
      try await load(round: round, seed: rng.next(), killAfter: seconds)
      if let cut {
        if cut.wasActive { report.cutRoundsActive += 1 }
        let reverted = try cut.revert()
        report.cutRecords += reverted.records
        report.cutBytesRestored += reverted.bytesRestored
      }
      let integrity = Self.integrityCheck(daemon.dataDirectory + "/chime.db")
      if integrity != "ok" { fail(round, "integrity_check: \(integrity)") }
      daemon = try Self.makeDaemon(directory, cut: cut)
      try daemon.start()
      try await check(round: round, final: false)
      report.rounds = round + 1
      if report.failures.count > 20 { break }
    }
    // Last: let every one-shot fire, then check once more with nothing left in doubt.
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 30)
    for _ in 0..<100 {
      let pending = try await client.allPending()
      if !pending.contains(where: { $0.request.trigger?.repeats != true }) { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    try await check(round: options.rounds, final: true)
    daemon.terminate()
    let integrity = Self.integrityCheck(daemon.dataDirectory + "/chime.db")
    if integrity != "ok" { fail(options.rounds, "integrity_check after a clean stop: \(integrity)") }
    ledger.with { l in
      report.ackedAdds = l.acked.count
      report.ackedRemoves = l.removed.count
      report.failures += l.unexpectedErrors
    }
    report.deliveries = deliveries.values.reduce(0) { $0 + $1.count }
    report.missedDeliveries = deliveries.values.reduce(0) { $0 + $1.filter(\.missed).count }
    report.seconds = Date().timeIntervalSince(started)
    return report
  }

  func fail(_ round: Int, _ message: String) {
    report.failures.append("round \(round): \(message)")
  }

  // MARK: Load

  /// 32 clients at work until chimed is killed after `killAfter` seconds.
  func load(round: Int, seed: UInt64, killAfter: Double) async throws {
    let socket = daemon.socketPath
    let work = directory.file("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let png = MediaCorpus.data("images/png-rgb.png")
    var clients: [ChimeClient] = []
    for _ in 0..<options.clients {
      clients.append(try ChimeClient.connect(socketPath: socket, app: app, timeout: 20))
    }
    let ledger = self.ledger
    let app = self.app
    let stop = StopFlag()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (k, client) in clients.enumerated() {
        group.addTask {
          var rng = SplitMix64(seed: seed &+ UInt64(k) &* 0x9E37_79B9)
          var n = 0
          while !stop.isSet {
            n += 1
            let id = "r\(round)-c\(k)-\(n)"
            let dice = Int.random(in: 0..<100, using: &rng)
            if dice < 55 {
              // A one-shot due in 1–2 s, a quarter of them with an attachment being staged.
              var content = NotificationContent(title: "T \(id)")
              let attach = Int.random(in: 0..<4, using: &rng) == 0
              if attach {
                let source = MediaCorpus.write(png, to: "\(work)/\(id).png")
                content.attachments = [Attachment(identifier: "a", path: source)]
              }
              let seconds = Double(Int.random(in: 1000...2000, using: &rng)) / 1000
              let request = NotificationRequest(identifier: id, content: content,
                                                trigger: .timeInterval(TimeIntervalTrigger(seconds: seconds)))
              await Self.add(request, Added(kind: .oneShot, attachment: attach), client: client, ledger: ledger)
            } else if dice < 62 {
              // Repeating every minute at a random second: some fire in every round.
              var components = CalendarComponents()
              components.second = Int.random(in: 0..<60, using: &rng)
              let request = NotificationRequest(identifier: id, content: NotificationContent(title: "R \(id)"),
                                                trigger: .calendar(CalendarTrigger(components: components, repeats: true)))
              await Self.add(request, Added(kind: .repeating, attachment: false), client: client, ledger: ledger)
            } else if dice < 85 {
              let candidates = ledger.with { l in l.acked.keys.filter { !l.removed.contains($0) && !l.uncertainRemoves.contains($0) } }
              if let victim = candidates.randomElement(using: &rng) {
                await Self.remove(victim, client: client, ledger: ledger)
              }
            } else {
              if let error = await caughtError({ _ = try await client.allPending() }), !Self.inDoubt(error) {
                ledger.with { $0.unexpectedErrors.append("list: \(error)") }
              }
            }
            if stop.isSet { break }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 5...40, using: &rng)))
          }
          _ = app
        }
      }
      group.addTask { [daemon] in
        try await Task.sleep(for: .milliseconds(Int(killAfter * 1000)))
        daemon.kill9()
        stop.set()
      }
      try await group.waitForAll()
    }
  }

  static func add(_ request: NotificationRequest, _ added: Added, client: ChimeClient, ledger: Ledger) async {
    let id = request.identifier
    ledger.with { $0.uncertainAdds[id] = added }
    let error = await caughtError { _ = try await client.add(request) }
    guard let error else {
      ledger.with { l in
        l.uncertainAdds[id] = nil
        l.acked[id] = added
      }
      return
    }
    if !inDoubt(error) {  // no answer: stays uncertain
      ledger.with { l in
        l.uncertainAdds[id] = nil
        l.refused.insert(id)
        l.unexpectedErrors.append("add \(id): \(error)")
      }
    }
  }

  /// The daemon died before answering: the call may or may not have taken effect.
  static func inDoubt(_ error: ChimeError) -> Bool {
    error.code == .unavailable || error.code == .cancelled || error.code == .deadlineExceeded
  }

  static func remove(_ id: String, client: ChimeClient, ledger: Ledger) async {
    ledger.with { _ = $0.uncertainRemoves.insert(id) }
    var removed: [String] = []
    let error = await caughtError { removed = try await client.removePending([id]) }
    guard let error else {
      ledger.with { l in
        l.uncertainRemoves.remove(id)
        if removed.contains(id) { l.removed.insert(id) }
      }
      return
    }
    if !inDoubt(error) {
      ledger.with { l in
        l.uncertainRemoves.remove(id)
        l.unexpectedErrors.append("remove \(id): \(error)")
      }
    }
  }

  // MARK: Checks

  func check(round: Int, final: Bool) async throws {
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 30)
    // The store's files before anything can change them (no clients yet; fires keep files).
    let storeRoot = daemon.dataDirectory + "/attachments"
    let files = Set(MediaCorpus.files(under: storeRoot).filter { !$0.contains(".thumb-") })
    // Pending first, then the events: a one-shot firing in between shows up in the events.
    let pending = try await client.allPending()
    let delivered = try await client.allDelivered()
    try await withTimeout(60, "reading the event log") { try await self.readEvents(client, round: round) }
    let pendingIDs = Set(pending.map(\.request.identifier))

    // Attachments: exactly the files rows name.
    var named = Set<String>()
    for attachment in pending.flatMap(\.request.content.attachments) + delivered.flatMap(\.request.content.attachments) {
      if let path = attachment.info?.storePath { named.insert(path) }
    }
    // Rows read after the listing may name files of fires since; compare on what both saw.
    for path in named.subtracting(files) { fail(round, "row names \(path), which is not in the store") }
    for path in files.subtracting(named) { fail(round, "store holds \(path), which no row names") }
    report.attachmentsStored = files.count

    ledger.with { l in
      report.uncertain += l.uncertainAdds.count + l.uncertainRemoves.count
      // In-doubt operations resolve to what the daemon shows.
      for (id, added) in l.uncertainAdds where pendingIDs.contains(id) || deliveries[id] != nil {
        l.acked[id] = added
      }
      // Not there after the daemon that might have taken them died: never taken.
      for id in l.uncertainAdds.keys where l.acked[id] == nil { l.refused.insert(id) }
      l.uncertainAdds = [:]
      for id in l.uncertainRemoves where removalCursor[id] != nil { l.removed.insert(id) }
      l.uncertainRemoves = []

      for (id, added) in l.acked {
        let fired = deliveries[id] ?? []
        if l.removed.contains(id) {
          if pendingIDs.contains(id) { fail(round, "\(id) came back after its removal was acknowledged") }
          guard let removedAt = removalCursor[id] else {
            fail(round, "\(id): removal acknowledged but no pending-removed event stored")
            continue
          }
          if fired.contains(where: { $0.cursor > removedAt }) { fail(round, "\(id) delivered after its removal") }
        } else if added.kind == .oneShot {
          if !pendingIDs.contains(id) && fired.isEmpty { fail(round, "acknowledged one-shot \(id) is neither pending nor delivered") }
          if final && pendingIDs.contains(id) { fail(round, "one-shot \(id) still pending at the end") }
        } else if !pendingIDs.contains(id) {
          fail(round, "acknowledged repeating \(id) is no longer pending")
        }
        if added.kind == .oneShot && fired.count > 1 { fail(round, "one-shot \(id) delivered \(fired.count) times") }
        let dues = fired.map(\.due)
        if Set(dues).count != dues.count { fail(round, "\(id) delivered twice for one due instant: \(dues)") }
        if added.kind == .repeating {
          for (a, b) in zip(fired, fired.dropFirst()) {
            let gap = b.due.millis(since: a.due)
            if gap <= 0 || gap % 60_000 != 0 || (gap != 60_000 && !b.missed) {
              fail(round, "\(id): due \(a.due) then \(b.due) (missed: \(b.missed)) skips or repeats a minute")
            }
          }
        }
      }
      for id in l.refused where pendingIDs.contains(id) || deliveries[id] != nil {
        fail(round, "add \(id), refused or lost with its daemon, exists")
      }
    }
  }

  /// Reads the stored events after the last cursor, up to the live point.
  func readEvents(_ client: ChimeClient, round: Int) async throws {
    let stream = client.subscribe(after: cursor)
    for try await event in stream {
      switch event.kind {
      case .subscribed:
        return
      case .eventsLost:
        fail(round, "events lost after cursor \(cursor)")
      case .delivered:
        if let d = event.delivered {
          deliveries[d.request.identifier, default: []].append(Delivery(due: d.due, missed: d.missed, cursor: event.cursor))
        }
      case .pendingRemoved:
        for id in event.identifiers { removalCursor[id] = event.cursor }
      default:
        break
      }
      if event.cursor > 0 { cursor = max(cursor, event.cursor) }
    }
    fail(round, "the event stream ended before going live")
  }

  /// `PRAGMA integrity_check` through the sqlite3 shell, read-only.
  public static func integrityCheck(_ database: String) -> String {
    guard let result = try? ChildProcess.run("/usr/bin/sqlite3", ["-readonly", database, "PRAGMA integrity_check;"]) else {
      return "sqlite3 did not run"
    }
    let out = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    return result.status == 0 ? out : "sqlite3 exit \(result.status): \(out) \(result.errors)"
  }
}

/// Set once by the killer task; read by the workers.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
