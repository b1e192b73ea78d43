import ChimeClient
import ChimeCore
import Foundation

/// Do 50 MB movies being added delay other clients? `movieClients` clients each add a ~49.9 MB
/// MPEG-4 from their bundle over and over (each add copies, fsyncs and inspects it off the loop,
/// replacing the previous one); meanwhile another client times small durable adds. Compared with
/// the same small adds alone. With four movie clients and no limit on concurrent staging, the
/// copies would hold all four of libuv's pool threads and the small adds would wait for them.
struct AttachmentLoad {
  static let app = "org.chime.bench.movies"
  static let movieBytes = 49_900_000

  var movieAdds: [Double]
  var alone: [Double]
  var during: [Double]

  var movieClients = 1

  static func run(socket: String, directory: String, movie fixture: URL, movies: Int, movieClients: Int,
                  smallAdds: Int) async throws -> AttachmentLoad {
    let bundle = directory + "/movie-bundle"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    let path = bundle + "/big.mp4"
    try padded(fixture, to: movieBytes).write(to: URL(fileURLWithPath: path))
    // One app per movie client: each app has its own 100 MB quota.
    let clientCount = max(movieClients, 1)
    for c in 0..<clientCount {
      _ = try await ChimeClient.connect(socketPath: socket, app: app + ".\(c)").registerApp(bundle: bundle)
    }

    let alone = try await smallAddLatencies(socket: socket, count: smallAdds, prefix: "alone")
    let result = try await withThrowingTaskGroup(of: (String, [Double]).self) { group in
      for c in 0..<clientCount {
        group.addTask {
          let movieClient = try ChimeClient.connect(socketPath: socket, app: app + ".\(c)")
          var times: [Double] = []
          for _ in 0..<movies {
            var request = NotificationRequest(identifier: "movie-\(c)", content: NotificationContent(title: "Movie"),
                                              trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400)))
            request.content.attachments = [Attachment(path: path)]
            let t0 = ContinuousClock.now
            _ = try await movieClient.add(request)
            times.append((ContinuousClock.now - t0).micros)
          }
          return ("movies", times)
        }
      }
      group.addTask {
        ("small", try await smallAddLatencies(socket: socket, count: smallAdds, prefix: "during"))
      }
      var parts: [String: [Double]] = [:]
      for try await (name, times) in group { parts[name, default: []] += times }
      return parts
    }
    return AttachmentLoad(movieAdds: result["movies"] ?? [], alone: alone, during: result["small"] ?? [], movieClients: movieClients)
  }

  /// The fixture with a top-level `free` box appended, so it is a valid MPEG-4 of `size` bytes.
  static func padded(_ fixture: URL, to size: Int) throws -> Data {
    var data = try Data(contentsOf: fixture)
    let pad = size - data.count
    precondition(pad > 8)
    withUnsafeBytes(of: UInt32(pad).bigEndian) { data.append(contentsOf: $0) }
    data.append(contentsOf: Array("free".utf8))
    data.append(Data(count: pad - 8))
    return data
  }

  static func smallAddLatencies(socket: String, count: Int, prefix: String) async throws -> [Double] {
    let client = try ChimeClient.connect(socketPath: socket, app: AddLoad.app)
    var times: [Double] = []
    for i in 0..<count {
      let request = NotificationRequest(identifier: "\(prefix)-\(i)", content: NotificationContent(title: "Small \(i)"),
                                        trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400)))
      let t0 = ContinuousClock.now
      _ = try await client.add(request)
      times.append((ContinuousClock.now - t0).micros)
    }
    return times
  }

  func print() {
    let movies = movieAdds.sorted(), alone = alone.sorted(), during = during.sorted()
    Swift.print(String(format: "attachments: %d clients, %d adds of a %.1f MB movie from the bundle (copy+fsync+inspect): p50 %.0f ms, max %.0f ms",
                       movieClients, movies.count, Double(Self.movieBytes) / 1e6, movies.percentile(0.5) / 1000, (movies.last ?? .nan) / 1000))
    Swift.print(String(format: "attachments: another client's small adds alone p50 %.2f ms p99 %.2f ms; during the movie adds p50 %.2f ms p99 %.2f ms (max %.1f ms)",
                       alone.percentile(0.5) / 1000, alone.percentile(0.99) / 1000,
                       during.percentile(0.5) / 1000, during.percentile(0.99) / 1000, (during.last ?? .nan) / 1000))
  }
}
