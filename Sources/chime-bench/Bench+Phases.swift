import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation
import Glibc

/// The phases that measure processes and files: the CLI beside systemctl, and 50 MB attachments.
extension Bench {
  /// `chime pending` (the CLI next to this binary, against the benchmark's daemon, with a few
  /// requests to list) as a whole process: wall time and peak RSS from wait4, beside
  /// `systemctl --version` run alternately with it.
  func processPhase(daemon: DaemonHandle, directory: String, report: inout Report) async throws {
    let cli = program("chime")
    let app = "chime.cli"
    let client = try ChimeClient.connect(socketPath: daemon.socket, app: app)
    for i in 0..<10 {
      _ = try await client.add(NotificationRequest(identifier: "cli-\(i)", content: NotificationContent(title: "Listed \(i)"),
                                                   trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400))))
    }
    var chimeRuns: [Spawned] = []
    var systemctlRuns: [Spawned] = []
    let haveSystemctl = Spawned.resolve("systemctl") != nil
    let limit = ContinuousClock.now + .seconds(60)
    for _ in 0..<processRuns where ContinuousClock.now < limit {
      let run = try Spawned.run(cli, ["pending", "--socket", daemon.socket, "--app", app], scratch: directory)
      guard run.status == 0, run.output.contains("cli-9") else {
        throw BenchError("chime pending failed (status \(run.status)): \(run.output.prefix(300))")
      }
      chimeRuns.append(run)
      if haveSystemctl { systemctlRuns.append(try Spawned.run("systemctl", ["--version"], scratch: directory)) }
    }
    let wall = chimeRuns.map { $0.wallSeconds * 1000 }.sorted()
    let cpu = chimeRuns.map { $0.cpuSeconds * 1000 }.sorted()
    // Each run beside the systemctl run after it: the goal's ratio is taken pair by pair.
    report.figure("chime-pending-wall", rounds: chimeRuns.map { $0.wallSeconds * 1000 }, "ms",
                  note: "median of \(chimeRuns.count) runs listing 10 requests")
    report.figure("chime-pending-cpu-p50", cpu.percentile(0.5), "ms")
    // Peak RSS: wait4's ru_maxrss of a posix_spawned child also counts the spawner's own peak
    // (glibc spawns with CLONE_VM|CLONE_VFORK and the kernel records the old mm's high-water
    // mark at exec), so it would report this benchmark's RSS. GNU time forks from a ~1 MiB
    // process and reports its child's ru_maxrss from wait4, which is then the child's own.
    let rss: [Double]
    let rssNote: String
    if Spawned.resolve("/usr/bin/time") != nil {
      var runs: [Double] = []
      for i in 0..<5 {
        let out = directory + "/time-\(i).txt"
        let run = try Spawned.run("/usr/bin/time", ["-f", "%M", "-o", out, cli, "pending", "--socket", daemon.socket, "--app", app],
                                  scratch: directory)
        guard run.status == 0, let text = try? String(contentsOfFile: out, encoding: .utf8),
              let kib = Double(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "") else {
          throw BenchError("/usr/bin/time chime pending failed (status \(run.status))")
        }
        runs.append(kib / 1024)
      }
      rss = runs.sorted()
      rssNote = "ru_maxrss from wait4 in GNU time (fork+exec from a small process), median of \(runs.count) runs"
      if let floor = try? Spawned.run("/usr/bin/time", ["-f", "%M", "-o", directory + "/time-systemctl.txt", "systemctl", "--version"], scratch: directory),
         floor.status == 0, let text = try? String(contentsOfFile: directory + "/time-systemctl.txt", encoding: .utf8),
         let kib = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
        report.floor("systemctl-version-peak-rss", kib / 1024, "MiB")
      }
    } else {
      rss = chimeRuns.map { Double($0.peakRSSKiB) / 1024 }.sorted()
      rssNote = "ru_maxrss from wait4 of a posix_spawned child: includes chime-bench's own peak (no /usr/bin/time)"
    }
    report.figure("chime-pending-peak-rss", rss.percentile(0.5), "MiB", note: rssNote)
    var line = String(format: "process: chime pending (%d runs) wall p50 %.1f ms, CPU p50 %.1f ms, peak RSS %.1f MiB",
                      chimeRuns.count, wall.percentile(0.5), cpu.percentile(0.5), rss.percentile(0.5))
    if haveSystemctl {
      let floor = systemctlRuns.map { $0.wallSeconds * 1000 }.sorted().percentile(0.5)
      report.floor("systemctl-version-wall", rounds: systemctlRuns.map { $0.wallSeconds * 1000 }, "ms",
                   note: "median of \(systemctlRuns.count) runs, alternating with chime pending")
      line += String(format: "; systemctl --version wall p50 %.1f ms", floor)
    } else {
      report.skipped.append("systemctl not installed: no floor for chime pending's wall time")
    }
    print(line)
  }

  /// `count` sequential adds through ChimeClient, nothing printed: the load scripts/bench-check.sh
  /// runs under callgrind (the client's instructions) or against a chimed under callgrind.
  static func sequentialAdds(socket: String?, count: Int) async throws {
    let client = try ChimeClient.connect(socketPath: socket, app: AddLoad.app, timeout: 600)
    for i in 0..<count {
      _ = try await client.add(AddLoad.request("check-\(i)", i))
    }
  }

  /// User + system CPU of this process so far, in seconds.
  static func processCPUSeconds() -> Double {
    cpuMicros(__rusage_who_t(RUSAGE_SELF.rawValue)) / 1e6
  }

  /// User + system CPU of the calling thread so far, in µs.
  static func threadCPUMicros() -> Double {
    // RUSAGE_THREAD (1): Glibc's module leaves it out, as it needs _GNU_SOURCE.
    cpuMicros(__rusage_who_t(1))
  }

  /// User + system CPU so far of `who` (getrusage's RUSAGE_SELF or RUSAGE_THREAD), in µs.
  private static func cpuMicros(_ who: __rusage_who_t) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
  }

  /// A program of the build measured: from `--programs`, else built next to this binary.
  func program(_ name: String) -> String {
    let directory = programs.map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    return directory.appendingPathComponent(name).path
  }

  func attachmentPhase(daemon: DaemonHandle, directory: String, report: inout Report) async throws {
    let fixture = movieFixture.map { URL(fileURLWithPath: $0) } ?? Self.repositoryFixture("movies/mp4-video.mp4")
    let load = try await AttachmentLoad.run(socket: daemon.socket, directory: directory, movie: fixture, movies: movies,
                                            movieClients: movieClients, smallAdds: 400)
    load.print()
    report.figure("attachments-small-adds-alone-p99", load.alone.sorted().percentile(0.99) / 1000, "ms")
    report.figure("attachments-small-adds-during-p99", load.during.sorted().percentile(0.99) / 1000, "ms",
                  note: "\(movieClients) clients adding 50 MB movies meanwhile")
  }

  /// A fixture in Tests/Fixtures/media, found from this source file's path.
  static func repositoryFixture(_ name: String) -> URL {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // Bench.swift, chime-bench, Sources
    return url.appendingPathComponent("Tests/Fixtures/media/" + name)
  }
}

extension ChimeClient {
  /// Counts pending requests by paging through them.
  func pendingCount() async throws -> Int {
    var total = 0
    var token = ""
    repeat {
      let page = try await pending(PageRequest(pageSize: 1000, pageToken: token))
      total += page.items.count
      token = page.nextPageToken
    } while !token.isEmpty
    return total
  }
}
