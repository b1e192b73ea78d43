import ArgumentParser
import ChimeStore
import Foundation
import Glibc

/// The entry point. `chime-bench --client-adds N --socket PATH` only does N sequential adds
/// through ChimeClient and exits (`--clients C`: N adds from C clients at once, to profile the
/// client's many-connection path): the load scripts/bench-check.sh runs under valgrind (the
/// client's instructions) or against a chimed under valgrind. It keeps the main thread
/// synchronous, waiting on a semaphore: valgrind 3.19 crashes in the Swift async main, whose
/// main thread parks in dispatch_main (sigsuspend). `chime-bench --store-adds N [--clients C]`
/// only runs chimed's store alone (N adds, C per transaction, in this process): the phase to
/// profile the store with, under valgrind or perf. `chime-bench --raw-adds N --socket PATH
/// [--clients C] [--grpc]` only sends N adds over the native framing (or gRPC) from C
/// connections to a running chimed: the load to compare the two transports' daemon side with.
/// Everything else is `Bench`.
@main
enum Entry {
  static func main() {
    // SQLite's process settings are the store's, for the floors too: made before either opens.
    ChimeDatabase.configureSQLite()
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let i = arguments.firstIndex(of: "--client-adds") {
      guard i + 1 < arguments.count, let count = Int(arguments[i + 1]), count >= 0 else {
        FileHandle.standardError.write(Data("chime-bench: --client-adds takes a count\n".utf8))
        exit(2)
      }
      let socket = arguments.firstIndex(of: "--socket").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
      let clients = arguments.firstIndex(of: "--clients").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
      let done = DispatchSemaphore(value: 0)
      let failure = FailureBox()
      // Detached: main() is on the main actor, and the main thread waits below.
      Task.detached {
        do {
          if let clients, clients > 1, let socket {
            let load = try await AddLoad.run(socket: socket, clients: clients, total: count, idPrefix: "client-\(clients)")
            print(String(format: "adds (ChimeClient, %d clients): %d in %.2f s = %.0f adds/s; p50 %.3f ms",
                         clients, load.total, load.seconds, load.rate, load.p50Millis))
          } else {
            try await Bench.sequentialAdds(socket: socket, count: count)
          }
        } catch {
          failure.set("\(error)")
        }
        done.signal()
      }
      done.wait()
      if let message = failure.get() {
        FileHandle.standardError.write(Data("chime-bench: \(message)\n".utf8))
        exit(1)
      }
      exit(0)
    }
    if let i = arguments.firstIndex(of: "--raw-adds") {
      let clients = arguments.firstIndex(of: "--clients").map { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) ?? 0 : 0 } ?? 1
      let socket = arguments.firstIndex(of: "--socket").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
      guard i + 1 < arguments.count, let count = Int(arguments[i + 1]), count > 0, clients > 0, let socket else {
        FileHandle.standardError.write(Data("chime-bench: --raw-adds takes a count, --socket PATH (and --clients a positive count)\n".utf8))
        exit(2)
      }
      let grpc = arguments.contains("--grpc")
      do {
        let load = grpc
          ? try GRPCAddLoad.run(socket: socket, clients: clients, total: count, idPrefix: "raw-grpc")
          : try RawAddLoad.run(socket: socket, clients: clients, total: count, idPrefix: "raw-native")
        print(String(format: "adds (%@, %d clients): %d in %.2f s = %.0f adds/s; p50 %.3f ms",
                     grpc ? "gRPC" : "native", clients, load.total, load.seconds, load.rate, load.p50Millis))
      } catch {
        FileHandle.standardError.write(Data("chime-bench: \(error)\n".utf8))
        exit(1)
      }
      exit(0)
    }
    if let i = arguments.firstIndex(of: "--store-adds") {
      let clients = arguments.firstIndex(of: "--clients").map { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) ?? 0 : 0 } ?? 32
      guard i + 1 < arguments.count, let count = Int(arguments[i + 1]), count > 0, clients > 0 else {
        FileHandle.standardError.write(Data("chime-bench: --store-adds takes a count (and --clients a positive count)\n".utf8))
        exit(2)
      }
      do {
        let directory = try BenchDirectory()
        defer { directory.remove() }
        let store = try StoreLoad.run(in: directory.path, clients: clients, total: count)
        print(String(format: "adds: chimed's store alone (%d adds per transaction): %d adds in %.2f s = %.0f adds/s; commit p50 %.3f ms",
                     clients, store.total, store.seconds, store.rate, store.commitP50Millis))
      } catch {
        FileHandle.standardError.write(Data("chime-bench: \(error)\n".utf8))
        exit(1)
      }
      exit(0)
    }
    Task {
      await Bench.main()
      exit(0)
    }
    dispatchMain()
  }
}

private final class FailureBox: @unchecked Sendable {
  private let lock = NSLock()
  private var message: String?
  func set(_ m: String) { lock.withLock { message = m } }
  func get() -> String? { lock.withLock { message } }
}
