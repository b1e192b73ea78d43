import ChimeCore
import Logging
import ChimeStore

/// The zone floating calendar triggers follow. A change re-plans them in bounded batches: each
/// batch is read off the loop, decided by `FloatingReplan` and committed as one mutation that
/// applies only to rows unchanged since the read.
/// Loop thread only.
final class ZonePlanner {
  /// Floating rows read and re-planned at a time.
  static let replanBatchSize = 256

  let context: ServiceContext
  private let zoneProvider: @Sendable () -> Zone
  /// The zone floating calendar triggers follow now.
  private(set) var zone: Zone
  /// Bumped by every zone change: a re-plan still walking batches for an older zone stops.
  private var replanGeneration = 0

  init(context: ServiceContext, zoneProvider: @escaping @Sendable () -> Zone) {
    self.context = context
    self.zoneProvider = zoneProvider
    zone = zoneProvider()
  }

  /// Asks for the zone again; when it changed, re-plans floating calendar triggers.
  func checkTimeZone() {
    let current = zoneProvider()
    guard current.identifier != zone.identifier else { return }
    context.logger.notice("time zone changed; re-planning floating calendar triggers",
                  metadata: ["from": "\(zone.identifier)", "to": "\(current.identifier)"])
    zone = current
    replanGeneration += 1
    replanBatch(after: nil, generation: replanGeneration)
  }

  private func replanBatch(after: (app: String, identifier: String)?, generation: Int) {
    let database = context.database, zone = self.zone, now = context.clock.now(), limit = Self.replanBatchSize
    context.loop.runBlocking(catching: { () throws(ChimeError) -> (ReplanFloating, last: (app: String, identifier: String)?, full: Bool) in
        let rows = try database.floatingRows(after: after, limit: limit)
        let changes = rows.map { row in
          ReplanFloating.Change(row: row, decision: FloatingReplan.decide(row.pending.request, current: row.key.due, zone: zone, now: now))
        }.filter { $0.decision != .unchanged }
        let last = rows.last.map { (app: $0.key.app, identifier: $0.key.identifier) }
        return (ReplanFloating(zone: zone, changes: changes, at: now), last, rows.count == limit)
    }, then: { [self] result in
      guard generation == replanGeneration else { return }  // a newer zone re-plans from the start
      switch result {
      case .failure(let error):
        context.logger.error("re-planning floating triggers failed", metadata: ["error": "\(error)"])
      case .success(let (mutation, last, full)):
        let next = { [self] in if full, let last { replanBatch(after: last, generation: generation) } }
        guard !mutation.changes.isEmpty else { return next() }
        context.writer.submit(mutation) { [self] result in
          switch result {
          case .success(let outcome):
            for (app, events) in outcome.appEvents { context.hub.publish(events, app: app) }
            context.discard(outcome.discardedFiles)
            for key in outcome.rescheduled { context.scheduler.scheduled(key) }
            next()
          case .failure(let error):
            context.logger.error("re-planning floating triggers failed", metadata: ["error": "\(error)"])
          }
        }
      }
    })
  }
}
