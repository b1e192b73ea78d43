import ChimeClient
import ChimeCore
import Foundation

/// Schedules `fires` requests due over a couple of seconds, with everything else still
/// pending, and measures delivery lateness: the daemon's delivered instant minus the due
/// instant, and the moment the subscriber saw the event minus the due instant.
struct FireLateness {
  var daemonLatenessMillis: [Double]
  var observedLatenessMillis: [Double]

  static func run(socket: String, fires: Int) async throws -> FireLateness {
    let client = try ChimeClient.connect(socketPath: socket, app: "org.chime.bench.fire")
    var events = client.subscribe().makeAsyncIterator()
    while let e = try await events.next(), e.kind != .subscribed {}
    // Due times spread over 2 s starting 1.5 s from now: every add is acknowledged before the
    // first one is due.
    let base = Instant(Date()).adding(millis: 1500)
    var dues: [String: Instant] = [:]
    try await withThrowingTaskGroup(of: (String, Instant).self) { group in
      for i in 0..<fires {
        group.addTask {
          let due = base.adding(millis: Int64(i * 2000 / fires))
          let seconds = Double(due.millis(since: Instant(Date()))) / 1000
          let r = try await client.add(NotificationRequest(
            identifier: "fire-\(i)", content: NotificationContent(title: "Fire \(i)"),
            trigger: .timeInterval(TimeIntervalTrigger(seconds: max(seconds, 0.001)))))
          return ("fire-\(i)", r.pending.nextFire)
        }
      }
      for try await (id, due) in group { dues[id] = due }
    }
    var daemonSide: [Double] = []
    var observed: [Double] = []
    let deadline = Date().addingTimeInterval(60)
    while daemonSide.count < fires, Date() < deadline, let e = try await events.next() {
      guard e.kind == .delivered, let d = e.delivered, dues[d.request.identifier] != nil else { continue }
      // The timer's own lateness, to the microsecond; a daemon that does not record it (older
      // than fire_lateness_us) leaves the whole-millisecond delivered − due.
      daemonSide.append(d.fireLatenessMicros.map { Double($0) / 1000 } ?? Double(d.delivered.millis(since: d.due)))
      observed.append(Date().timeIntervalSince(d.due.date) * 1000)
    }
    return FireLateness(daemonLatenessMillis: daemonSide.sorted(), observedLatenessMillis: observed.sorted())
  }

  func print() {
    Swift.print(String(format: "fire lateness (%d fires): timer woke − due p50 %.3f ms, p99 %.3f ms, max %.3f ms; event seen − due p50 %.1f ms, p99 %.1f ms",
                       daemonLatenessMillis.count,
                       daemonLatenessMillis.percentile(0.5), daemonLatenessMillis.percentile(0.99), daemonLatenessMillis.last ?? .nan,
                       observedLatenessMillis.percentile(0.5), observedLatenessMillis.percentile(0.99)))
  }
}
