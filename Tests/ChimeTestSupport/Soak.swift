import ChimeClient
import ChimeCore
import Foundation
import Glibc

/// Soak: the real `chimed` under a steady mixed load for a while — clients adding one-shots due
/// in 1–2 s (some with an attachment), removing, listing pending and delivered and clearing
/// delivered; 60 repeating requests, one for each second of the minute, so something fires every
/// second; one subscriber reading the live stream — while its resident memory (`VmRSS`) and
/// open descriptors (`/proc/PID/fd`) are sampled every few seconds.
///
/// After a warm-up (the first fifth of the time) both must stay flat: the median of the last
/// third of the samples may exceed the median of the first third by at most 5%. Medians, so one
/// sample caught mid-staging (a file open for a moment) does not decide. Every call must
/// succeed. Bounded in time (`seconds`) and in the work each client does per second.
public final class Soak: @unchecked Sendable {
  public struct Options: Sendable {
    public var seconds: Double = 20
    /// Sampling period; the default gives about 40 samples, between 0.5 and 5 s apart.
    public var sampleSeconds: Double?
    public var clients = 6
    public var seed: UInt64 = 0x50A4
    /// Allowed growth after the warm-up, as a fraction.
    public var tolerance = 0.05
    public init() {}
  }

  public struct Sample: Sendable, CustomStringConvertible {
    public var second: Double
    public var rssKiB: Int
    public var descriptors: Int
    public var description: String { String(format: "%.1fs %d KiB %d fds", second, rssKiB, descriptors) }
  }

  public struct Report: Sendable {
    public var samples: [Sample] = []
    public var warmUpSamples = 0
    /// Start-up, the repeating requests and the pool-filling bursts, before the timed load.
    public var setupSeconds = 0.0
    public var calls = 0
    public var adds = 0
    public var attachments = 0
    public var eventsRead = 0
    public var deliveriesSeen = 0
    public var errors: [String] = []
    /// Growth of the post-warm-up medians (last third over first third), as fractions.
    public var rssGrowth = 0.0
    public var descriptorGrowth = 0.0
    public var failures: [String] = []
    /// What each open descriptor of chimed points at, at the first sample after the warm-up
    /// and at the last sample.
    public var openAfterWarmUp: [String] = []
    public var openAtEnd: [String] = []
  }

  let options: Options
  let directory: TemporaryDirectory
  let app = "org.example.soak"
  let daemon: DaemonProcess
  private let lock = NSLock()
  private var report = Report()

  public init(options: Options, directory: TemporaryDirectory) {
    self.options = options
    self.directory = directory
    // Fewer stored events than the default 50,000 so the event log reaches its steady size
    // within the warm-up of a short run; pruning is part of what is soaked.
    daemon = DaemonProcess(directory: directory, arguments: ["--apps-dir", directory.file("apps"), "--presenter", "none",
                                                             "--sound-player", "none", "--event-retention", "2000"])
  }

  private func record(_ body: (inout Report) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    body(&report)
  }

  public func run() async throws -> Report {
    try daemon.start()
    defer { daemon.terminate() }
    let pid = daemon.processIdentifier
    let setupStarted = Date()
    let period = options.sampleSeconds ?? min(5, max(0.5, options.seconds / 40))

    // Repeating requests: one per second of the minute.
    let setup = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 20)
    var clients: [ChimeClient] = []
    for _ in 0..<options.clients {
      clients.append(try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 20))
    }
    // Repeating requests, added concurrently (their commits share fsyncs).
    try await withThrowingTaskGroup(of: Void.self) { group in
      for second in 0..<60 {
        let client = clients[second % clients.count]
        group.addTask {
          var components = CalendarComponents()
          components.second = second
          _ = try await client.add(NotificationRequest(identifier: "every-minute-\(second)", content: NotificationContent(title: "R \(second)"),
                                                       trigger: .calendar(CalendarTrigger(components: components, repeats: true))))
        }
      }
      try await group.waitForAll()
    }
    let watcher = try ChimeClient.connect(socketPath: daemon.socketPath, app: app, timeout: 20)
    let work = directory.file("work")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    let png = MediaCorpus.data("images/png-rgb.png")
    let stop = StopFlag()

    // Pools that grow only under concurrent demand (the store's reader connections, each with
    // its database and WAL descriptors; the work pool) reach their size now, within the
    // warm-up, rather than whenever the random load first happens to be concurrent enough.
    for _ in 0..<3 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients + [setup] {
          for _ in 0..<4 { group.addTask { _ = try await client.allPending(); _ = try await client.allDelivered() } }
        }
        try await group.waitForAll()
      }
    }
    // The clock starts once the setup is done, however long a loaded machine made it.
    let started = Date()
    let end = started.addingTimeInterval(options.seconds)
    record { $0.setupSeconds = started.timeIntervalSince(setupStarted) }

    // The subscriber runs until cancelled at the end: a quiet stream must not hold the run.
    let subscriber = Task { [self] in
      do {
        for try await event in watcher.subscribe() {
          record {
            $0.eventsRead += 1
            if event.kind == .delivered { $0.deliveriesSeen += 1 }
            if event.kind == .eventsLost { $0.errors.append("subscriber: events lost: \(event.note)") }
          }
          if stop.isSet { break }
        }
      } catch {
        if !stop.isSet { record { $0.errors.append("subscriber: \(error)") } }
      }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (k, client) in clients.enumerated() {
        group.addTask { [self] in
          var rng = SplitMix64(seed: options.seed &+ UInt64(k) &* 0x9E37_79B9)
          var recent: [String] = []
          var n = 0
          while !stop.isSet && Date() < end {
            n += 1
            let id = "c\(k)-\(n)"
            let dice = Int.random(in: 0..<100, using: &rng)
            var what = ""
            let error: ChimeError? = await caughtError {
              if dice < 45 {
                what = "add \(id)"
                var content = NotificationContent(title: "T \(id)")
                let attach = Int.random(in: 0..<5, using: &rng) == 0
                if attach {
                  content.attachments = [Attachment(identifier: "a", path: MediaCorpus.write(png, to: "\(work)/\(id).png"))]
                }
                let seconds = Double(Int.random(in: 1000...2000, using: &rng)) / 1000
                _ = try await client.add(NotificationRequest(identifier: id, content: content,
                                                             trigger: .timeInterval(TimeIntervalTrigger(seconds: seconds))))
                recent.append(id)
                if recent.count > 50 { recent.removeFirst() }
                record { $0.adds += 1; if attach { $0.attachments += 1 } }
              } else if dice < 65 {
                if let victim = recent.randomElement(using: &rng) {
                  what = "remove \(victim)"
                  _ = try await client.removePending([victim])
                  _ = try await client.removeDelivered([victim])
                }
              } else if dice < 80 {
                what = "list pending"
                _ = try await client.allPending()
              } else if dice < 95 {
                what = "list delivered"
                _ = try await client.allDelivered()
              } else {
                what = "remove all delivered"
                _ = try await client.removeAllDelivered()
              }
            }
            record {
              $0.calls += 1
              if let error { $0.errors.append("\(what): \(error)") }
            }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 20...60, using: &rng)))
          }
        }
      }
      // The sampler; it ends the run.
      group.addTask { [self] in
        while Date() < end {
          let sample = Sample(second: Date().timeIntervalSince(started), rssKiB: Self.residentKiB(pid), descriptors: Self.descriptors(pid))
          let targets = Self.descriptorTargets(pid)
          let warm = sample.second >= options.seconds * 0.2
          record {
            $0.samples.append(sample)
            if warm && $0.openAfterWarmUp.isEmpty { $0.openAfterWarmUp = targets }
            $0.openAtEnd = targets
          }
          try await Task.sleep(for: .milliseconds(Int(period * 1000)))
        }
        stop.set()
      }
      try await group.waitForAll()
    }
    subscriber.cancel()
    await subscriber.value
    if !daemon.isRunning { record { $0.failures.append("chimed exited during the soak; log:\n\(daemon.log.suffix(2000))") } }
    return judged()
  }

  /// Fills in the growth figures and failures from the samples.
  func judged() -> Report {
    lock.lock()
    var report = self.report
    lock.unlock()
    let warmUp = options.seconds * 0.2
    let steady = report.samples.filter { $0.second >= warmUp }
    report.warmUpSamples = report.samples.count - steady.count
    guard steady.count >= 6 else {
      report.failures.append("only \(steady.count) samples after the warm-up")
      return report
    }
    let third = steady.count / 3
    func growth(_ value: (Sample) -> Int) -> Double {
      let first = Self.median(steady.prefix(third).map(value))
      let last = Self.median(steady.suffix(third).map(value))
      return first > 0 ? last / first - 1 : 0
    }
    report.rssGrowth = growth(\.rssKiB)
    report.descriptorGrowth = growth(\.descriptors)
    let samples = steady.map(\.description).joined(separator: ", ")
    if report.rssGrowth > options.tolerance {
      report.failures.append("resident memory grew \(Self.percent(report.rssGrowth)) after the warm-up (samples: \(samples))")
    }
    if report.descriptorGrowth > options.tolerance {
      var opened = report.openAtEnd
      for target in report.openAfterWarmUp { if let i = opened.firstIndex(of: target) { opened.remove(at: i) } }
      report.failures.append("open descriptors grew \(Self.percent(report.descriptorGrowth)) after the warm-up "
        + "(opened since: \(opened.sorted()); samples: \(samples))")
    }
    if report.samples.contains(where: { $0.rssKiB == 0 || $0.descriptors == 0 }) {
      report.failures.append("a sample could not read /proc/\(daemon.processIdentifier)")
    }
    report.failures += report.errors.prefix(20).map { "unexpected error: \($0)" }
    return report
  }

  public static func percent(_ fraction: Double) -> String { String(format: "%.1f%%", fraction * 100) }

  static func median(_ values: [Int]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? Double(sorted[mid]) : Double(sorted[mid - 1] + sorted[mid]) / 2
  }

  /// `VmRSS` of `/proc/PID/status`, in KiB; 0 when it cannot be read.
  public static func residentKiB(_ pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
  }

  /// What each entry of `/proc/PID/fd` points at (a path, `socket:[inode]`, `anon_inode:...`).
  public static func descriptorTargets(_ pid: Int32) -> [String] {
    let directory = "/proc/\(pid)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) ?? "?" }.sorted()
  }

  /// Entries of `/proc/PID/fd`; 0 when it cannot be read.
  public static func descriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
  }
}
