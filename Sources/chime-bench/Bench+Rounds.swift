import ChimeClient
import Foundation

/// The add figures and the floors they count against, measured in rounds: each round runs every
/// load once, in an order that rotates from round to round, so a figure and its floor are
/// measured minutes apart at most and no load always goes first. A goal's ratio is taken round
/// by round (Report.check); the median is reported with the rounds' spread.
extension Bench {
  enum RoundLoad: String, CaseIterable {
    case storeMany = "store alone, N per tx"
    case rawMany = "N clients raw"
    case clientMany = "N clients ChimeClient"
    case grpcMany = "N clients gRPC"
    case sqlite = "SQLite floors"
    case redis = "Redis"
    case rawOne = "1 client raw"
    case clientOne = "1 client ChimeClient"
    case grpcOne = "1 client gRPC"
    case storeOne = "store alone, 1 per tx"
    case echo = "socket echo"

    var needsDaemon: Bool { [.rawMany, .clientMany, .grpcMany, .rawOne, .clientOne, .grpcOne].contains(self) }
  }

  /// Runs `loads` in `rounds` rounds and records their figures and floors; returns the adds
  /// sent to the daemon. Each round sends `parallel / (2 × rounds)` adds per many-client load
  /// and `single / rounds` per one-client load.
  func addRounds(daemon: DaemonHandle?, directory: String, loads: [RoundLoad], report: inout Report) async throws -> Int {
    let many = max(parallel / (2 * rounds), clients), one = max(single / rounds, 10)
    var samples: [String: [Double]] = [:]
    var sent = 0
    var redisNote: String?
    func add(_ key: String, _ value: Double) { samples[key, default: []].append(value) }
    for round in 0..<rounds {
      let order = Array(loads[(round % loads.count)...] + loads[..<(round % loads.count)])
      var line: [String] = []
      for load in order {
        let socket = daemon?.socket ?? ""
        if load.needsDaemon && daemon == nil { continue }
        let prefix = "round-\(round)-\(load)"
        switch load {
        case .storeMany:
          let s = try StoreLoad.run(in: directory, clients: clients, total: many)
          add("store-many", s.rate)
          line.append("store \(clients)/tx \(Report.number(s.rate))/s")
        case .storeOne:
          let s = try StoreLoad.run(in: directory, clients: 1, total: one)
          add("store-one-commit", s.commitP50Millis)
          line.append(String(format: "store lone commit %.3f ms", s.commitP50Millis))
        case .rawMany, .grpcMany:
          // Where the time goes: chimed's loop and pool threads, and this load generator.
          let threads = daemon?.threadCPUMicros(), cpu = Self.processCPUSeconds()
          let l = load == .grpcMany
            ? try GRPCAddLoad.run(socket: socket, clients: clients, total: many, idPrefix: prefix)
            : try RawAddLoad.run(socket: socket, clients: clients, total: many, idPrefix: prefix)
          let generator = (Self.processCPUSeconds() - cpu) * 1e6 / Double(max(l.total, 1))
          sent += l.total
          add("\(load)", l.rate)
          add("\(load)-p99", l.p99Millis)
          var text = "\(load == .grpcMany ? "gRPC" : "raw") \(clients) \(Report.number(l.rate))/s"
          if let threads, let after = daemon?.threadCPUMicros() {
            let n = Double(max(l.total, 1))
            add("\(load)-loop-cpu", (after.loop - threads.loop) / n)
            add("\(load)-pool-cpu", (after.others - threads.others) / n)
            add("\(load)-generator-cpu", generator)
            text += String(format: " (CPU per add: loop %.0f µs, pool %.0f, generator %.0f)",
                           (after.loop - threads.loop) / n, (after.others - threads.others) / n, generator)
          }
          line.append(text)
        case .clientMany:
          let l = try await AddLoad.run(socket: socket, clients: clients, total: many, idPrefix: prefix)
          sent += l.total
          add("clientMany", l.rate)
          line.append("ChimeClient \(clients) \(Report.number(l.rate))/s")
        case .rawOne, .grpcOne:
          let l = load == .grpcOne
            ? try GRPCAddLoad.run(socket: socket, clients: 1, total: one, idPrefix: prefix)
            : try RawAddLoad.run(socket: socket, clients: 1, total: one, idPrefix: prefix)
          sent += l.total
          add("\(load)-p50", l.p50Millis)
          add("\(load)-p99", l.p99Millis)
          line.append(String(format: "%@ 1 p50 %.3f ms", load == .grpcOne ? "gRPC" : "raw", l.p50Millis))
        case .clientOne:
          let cpu = Self.processCPUSeconds()
          let l = try await AddLoad.run(socket: socket, clients: 1, total: one, idPrefix: prefix)
          let perCall = (Self.processCPUSeconds() - cpu) / Double(max(l.total, 1)) * 1e6
          sent += l.total
          add("clientOne-p50", l.p50Millis)
          add("clientOne-cpu", perCall)
          line.append(String(format: "ChimeClient 1 p50 %.3f ms, %.0f µs CPU", l.p50Millis, perCall))
        case .sqlite:
          let f = try Floors.sqlite(in: directory, batches: 200, singles: 400)
          add("sqlite-batch", f.batchRowsPerSecond)
          add("sqlite-commit", f.singleCommitP50Micros / 1000)
          line.append(String(format: "SQLite 64/tx %@/s, commit %.3f ms", Report.number(f.batchRowsPerSecond), f.singleCommitP50Micros / 1000))
        case .redis:
          let r = try Floors.redisHSET(in: directory, clients: clients, requests: 20_000)
          redisNote = r.note
          if let rate = r.rate {
            add("redis", rate)
            line.append("Redis \(Report.number(rate))/s")
          }
        case .echo:
          let e = try Floors.socketEcho(in: directory, roundTrips: 2_000)
          add("echo", e.p50Micros / 1000)
          add("echo-client-cpu", e.clientCPUMicros)
          line.append(String(format: "echo %.3f ms", e.p50Micros / 1000))
        }
      }
      print("round \(round + 1)/\(rounds): " + line.joined(separator: "; "))
    }
    record(samples, redisNote: redisNote, perRound: (many, one), into: &report)
    return sent
  }

  private func record(_ s: [String: [Double]], redisNote: String?, perRound: (many: Int, one: Int), into report: inout Report) {
    let n = clients
    let each = "median of \(rounds) rounds"
    if let v = s["store-many"] {
      report.figure("adds-store-alone-\(n)-per-tx", rounds: v, "adds/s", note: "ChimeDatabase.commit in-process, \(n) AddPending per transaction, \(each)")
      report.floor("chimed-store-alone-\(n)-per-tx", rounds: v, "adds/s", note: "chimed's own store, \(n) adds per transaction, synchronous=FULL, no daemon, \(each)")
    }
    if let v = s["store-one-commit"] { report.figure("adds-store-alone-1-per-tx-commit-p50", rounds: v, "ms", note: each) }
    if let v = s["rawMany"] {
      report.figure("adds-\(n)-clients-raw", rounds: v, "adds/s", note: "\(perRound.many) adds a round, \(each)")
      report.floor("adds-\(n)-clients-native-same-run", rounds: v, "adds/s", note: "raw native framing, \(each)")
    }
    if let v = s["rawMany-p99"] { report.figure("adds-\(n)-clients-raw-p99", rounds: v, "ms") }
    for (load, name) in [("rawMany", "raw"), ("grpcMany", "grpc")] {
      for part in ["loop", "pool", "generator"] {
        if let v = s["\(load)-\(part)-cpu"] {
          report.figure("adds-\(n)-clients-\(name)-\(part)-cpu-per-add", rounds: v, "µs",
                        note: part == "generator" ? "the load generator's CPU (this process)" : "chimed's \(part) thread(s), from /proc schedstat")
        }
      }
    }
    if let v = s["clientMany"] { report.figure("adds-\(n)-clients-chimeclient", rounds: v, "adds/s", note: "\(perRound.many) adds a round, \(each)") }
    if let v = s["grpcMany"] { report.figure("adds-\(n)-clients-grpc", rounds: v, "adds/s", note: each) }
    if let v = s["grpcMany-p99"] { report.figure("adds-\(n)-clients-grpc-p99", rounds: v, "ms") }
    if let v = s["rawOne-p50"] {
      report.figure("adds-1-client-raw-p50", rounds: v, "ms", note: "\(perRound.one) adds a round, \(each)")
      report.floor("adds-1-client-native-p50-same-run", rounds: v, "ms", note: "raw native framing, \(each)")
    }
    if let v = s["rawOne-p99"] { report.figure("adds-1-client-raw-p99", rounds: v, "ms") }
    if let v = s["grpcOne-p50"] { report.figure("adds-1-client-grpc-p50", rounds: v, "ms", note: each) }
    if let v = s["clientOne-p50"] { report.figure("adds-1-client-chimeclient-p50", rounds: v, "ms", note: each) }
    if let v = s["clientOne-cpu"] {
      report.figure("chimeclient-cpu-per-call", rounds: v, "µs", note: "this process's user+system CPU over one client's sequential adds, \(each)")
    }
    if let v = s["sqlite-batch"] {
      report.floor("sqlite-full-64-row-tx", rounds: v, "rows/s", note: "WAL synchronous=FULL, pending-shaped table, 64 sequential-key rows per transaction, \(each)")
    }
    if let v = s["sqlite-commit"] { report.floor("sqlite-full-1-row-commit-p50", rounds: v, "ms", note: each) }
    if let v = s["echo"] { report.floor("unix-socket-round-trip-p50", rounds: v, "ms", note: "128-byte echo, \(each)") }
    if let v = s["echo-client-cpu"] {
      report.floor("unix-socket-round-trip-client-cpu", rounds: v, "µs", note: "the echo client thread's user+system CPU per round trip, \(each)")
    }
    if let echo = s["echo"], let commit = s["sqlite-commit"], echo.count == commit.count {
      report.floor("round-trip+1-row-commit", rounds: zip(echo, commit).map { $0 + $1 }, "ms", note: "each round's echo and one-row commit")
    }
    if let v = s["redis"] {
      report.floor("redis-appendfsync-always-hset-\(n)-clients", rounds: v, "req/s", note: redisNote)
    } else if let redisNote, s.keys.contains(where: { $0.hasSuffix("Many") }) {
      report.skipped.append(redisNote)
    }
  }
}
