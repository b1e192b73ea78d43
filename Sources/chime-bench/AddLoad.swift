import ChimeClient
import ChimeCore
import Foundation

/// Durable adds from N concurrent clients, each on its own connection, each waiting for its
/// acknowledgement before sending the next.
struct AddLoad {
  static let app = "org.chime.bench"

  /// The request every load adds: a far-future time-interval request numbered `i`, so each
  /// phase's adds are alike wherever they are sent from.
  static func request(_ identifier: String, _ i: Int) -> NotificationRequest {
    NotificationRequest(
      identifier: identifier,
      content: NotificationContent(title: "Bench \(i)", body: "A pending request for the benchmark"),
      trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400 + Double(i))))
  }
  var total: Int
  var seconds: Double
  var latenciesMicros: [Double]

  static func run(socket: String, clients: Int, total: Int, idPrefix: String) async throws -> AddLoad {
    let perClient = total / clients
    let start = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
      for c in 0..<clients {
        group.addTask {
          let client = try ChimeClient.connect(socketPath: socket, app: app)
          var mine: [Double] = []
          mine.reserveCapacity(perClient)
          for i in 0..<perClient {
            let request = AddLoad.request("\(idPrefix)-\(c)-\(i)", i)
            let t0 = ContinuousClock.now
            _ = try await client.add(request)
            mine.append((ContinuousClock.now - t0).micros)
          }
          return mine
        }
      }
      var all: [Double] = []
      for try await part in group { all += part }
      return all
    }
    return AddLoad(total: perClient * clients, seconds: (ContinuousClock.now - start).seconds, latenciesMicros: latencies)
  }

  var rate: Double { Double(total) / seconds }
  var p50Millis: Double { latenciesMicros.sorted().percentile(0.5) / 1000 }
  var p99Millis: Double { latenciesMicros.sorted().percentile(0.99) / 1000 }

  func print(label: String) {
    let sorted = latenciesMicros.sorted()
    Swift.print(String(format: "adds: %@  %d durable adds in %.2f s = %.0f adds/s; latency p50 %.2f ms, p99 %.2f ms",
                       label, total, seconds, Double(total) / seconds,
                       sorted.percentile(0.5) / 1000, sorted.percentile(0.99) / 1000))
  }
}

extension Duration {
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
  var micros: Double { seconds * 1e6 }
}

extension Array where Element == Double {
  /// Nearest-rank percentile of a sorted array.
  func percentile(_ p: Double) -> Double {
    guard !isEmpty else { return .nan }
    let rank = Swift.min(count - 1, Swift.max(0, Int((p * Double(count)).rounded(.up)) - 1))
    return self[rank]
  }
}
