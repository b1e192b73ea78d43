import ChimeSystem

/// What a running daemon is made of. Loop thread only (held in a `LoopBound`).
final class DaemonParts {
  var stack: ServiceStack?
  var registry: ConnectionRegistry?
  /// The transports besides the socket (`ServerTransports.others`), serving.
  var transports: [any ServerTransport] = []
  var clockWatch: ClockWatch?
  var idleTrim: IdleTrim?
  /// Held while the store is open (`lockDataDirectory`).
  var dataLock: FileLock?
  var signals: [SignalWatcher] = []
  var inProcessCalls: [ObjectIdentifier: InProcessCall] = [:]
  var shuttingDown = false

  var stats: DaemonStats {
    var stats = DaemonStats()
    stats.connections = registry?.count ?? 0
    stats.inProcessCalls = inProcessCalls.count
    stats.heapTrims = idleTrim?.trims ?? 0
    if let stack {
      stats.scheduleWindowKeys = stack.service.scheduleWindowCount
      stats.subscribers = stack.service.subscriberCount
      stats.attachmentsSwept = stack.sweep.removed.count
      stats.attachmentsMissing = stack.sweep.missing
      stats.fileLaneRunning = stack.service.fileLaneCounts.running
      stats.fileLaneQueued = stack.service.fileLaneCounts.queued
    }
    return stats
  }
}
