import Foundation
import Glibc

/// A temporary directory for the benchmark's daemon.
struct BenchDirectory {
  let path: String
  init() throws {
    var template = Array("/tmp/chime-bench-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw BenchError("mkdtemp failed")
    }
    path = String(cString: made)
  }
  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// The chimed of the build measured (`Bench.program`), started on a socket in the bench directory.
struct DaemonHandle {
  let process: Process
  let socket: String

  static func start(_ chimed: String, in directory: String, arguments: [String] = []) throws -> DaemonHandle {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: chimed)
    let socket = directory + "/chimed.sock"
    process.arguments = ["--socket", socket, "--data-dir", directory + "/data", "--apps-dir", directory + "/apps",
                         "--log-level", "warning"] + arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let line = out.fileHandleForReading.availableData
    guard String(decoding: line, as: UTF8.self).contains("listening") else {
      throw BenchError("chimed did not start")
    }
    return DaemonHandle(process: process, socket: socket)
  }

  /// Resident set size from /proc, in KiB.
  func residentKiB() -> Int { statusKiB("VmRSS:") }

  /// The anonymous part of it (heap, stacks, SQLite's caches: what chimed holds of its own), in
  /// KiB; the rest is file-backed (the executable's pages it has touched, shared and clean).
  func anonymousKiB() -> Int { statusKiB("RssAnon:") }

  private func statusKiB(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
      return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
  }

  /// CPU time chimed's threads have run, in µs, from /proc's schedstat (nanoseconds on the
  /// CPU): its loop (the main thread) and all the others (libuv's work pool, where commits
  /// run; helpers' threads). Read before and after a load, it says which side an add's time is
  /// spent on.
  func threadCPUMicros() -> (loop: Double, others: Double) {
    let pid = process.processIdentifier
    var loop = 0.0, others = 0.0
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    for tid in tasks {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/schedstat", encoding: .utf8),
            let nanos = Double(text.split(separator: " ").first ?? "") else { continue }
      if tid == "\(pid)" { loop += nanos / 1000 } else { others += nanos / 1000 }
    }
    return (loop, others)
  }

  /// SIGTERM and wait; nothing when it has already stopped.
  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }
}

enum Machine {
  static func describe() -> String {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
      .split(separator: "\n").first { $0.hasPrefix("model name") }?
      .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores"
  }
}
