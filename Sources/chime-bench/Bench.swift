import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation

@main
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
  @Flag(help: "Only the calendar engine's next-fire cost (no daemon).") var calendarOnly = false
  @Flag(help: "Only the large-attachment phase.") var attachmentsOnly = false
  @Option(help: "Adds of a 50 MB movie per movie client in the attachment phase.") var movies = 5
  @Option(help: "Clients adding movies at once in the attachment phase.") var movieClients = 4
  @Option(help: "chimed's attachment staging width (its default is 2; a large number means no limit).")
  var fileLaneWidth: Int?
  @Option(help: "MPEG-4 file padded to 50 MB for the attachment phase (default: the repository's fixture).")
  var movieFixture: String?

  func run() async throws {
    // 0. The calendar engine: cost of one next-fire computation over a mixed set of component
    //    sets (Feb 29, 5th Friday, week 53, DST nights) in several zones.
    print("calendar next fire: \(CalendarBenchmark.run())")
    if calendarOnly { return }

    let directory = try BenchDirectory()
    defer { directory.remove() }
    print("chime-bench on \(Machine.describe())")
    let daemonArguments = fileLaneWidth.map { ["--file-lane-width", "\($0)"] } ?? []
    var daemon = try DaemonHandle.start(in: directory.path, arguments: daemonArguments)
    // Stopped however the run ends, before the directory holding its data goes.
    defer { daemon.stop() }
    if attachmentsOnly {
      try await attachmentPhase(daemon: daemon, directory: directory.path)
      return
    }
    let emptyRSS = daemon.residentKiB()
    print(String(format: "memory: empty daemon RSS %.1f MiB", Double(emptyRSS) / 1024))

    // 1. One client, sequential durable adds: through the Swift client, then from the raw
    //    single-threaded load generator (which leaves the daemon more of the shared cores).
    let one = try await AddLoad.run(socket: daemon.socket, clients: 1, total: single, idPrefix: "single")
    one.print(label: "1 client, ChimeClient")
    let oneRaw = try RawAddLoad.run(socket: daemon.socket, clients: 1, total: single, idPrefix: "single-raw")
    oneRaw.print(label: "1 client, raw")

    // 2. Many clients, concurrent durable adds, the same two ways.
    let many = try await AddLoad.run(socket: daemon.socket, clients: clients, total: parallel / 2, idPrefix: "par")
    many.print(label: "\(clients) clients, ChimeClient")
    let manyRaw = try RawAddLoad.run(socket: daemon.socket, clients: clients, total: parallel / 2, idPrefix: "par-raw")
    manyRaw.print(label: "\(clients) clients, raw")

    // 3. Fill to `pending` far-future requests.
    let have = oneRaw.total + one.total + many.total + manyRaw.total
    if pending > have {
      _ = try await AddLoad.run(socket: daemon.socket, clients: clients, total: pending - have, idPrefix: "fill")
    }
    let client = try ChimeClient.connect(socketPath: daemon.socket, app: AddLoad.app)
    let count = try await client.pendingCount()
    let fullRSS = daemon.residentKiB()
    print(String(format: "memory: %d pending RSS %.1f MiB (%.2f× empty)", count, Double(fullRSS) / 1024, Double(fullRSS) / Double(max(emptyRSS, 1))))

    // 4. Start-up with everything pending.
    daemon.stop()
    let startClock = ContinuousClock.now
    daemon = try DaemonHandle.start(in: directory.path, arguments: daemonArguments)
    let startup = ContinuousClock.now - startClock
    print("startup: \(count) pending, listening after \(startup.formatted(.units(allowed: [.milliseconds])))")
    let restartedRSS = daemon.residentKiB()
    print(String(format: "memory: after restart with %d pending RSS %.1f MiB (%.2f× empty)", count, Double(restartedRSS) / 1024, Double(restartedRSS) / Double(max(emptyRSS, 1))))

    // 5. Fire lateness with all of that pending.
    let lateness = try await FireLateness.run(socket: daemon.socket, fires: fires)
    lateness.print()

    // 6. 50 MB attachments being added do not hold up other clients.
    try await attachmentPhase(daemon: daemon, directory: directory.path)
  }

  func attachmentPhase(daemon: DaemonHandle, directory: String) async throws {
    let fixture = movieFixture.map { URL(fileURLWithPath: $0) } ?? Self.repositoryFixture("movies/mp4-video.mp4")
    let load = try await AttachmentLoad.run(socket: daemon.socket, directory: directory, movie: fixture, movies: movies,
                                            movieClients: movieClients, smallAdds: 400)
    load.print()
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
