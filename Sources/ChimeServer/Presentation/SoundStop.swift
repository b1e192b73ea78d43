import ChimeSystem

/// Stops one play of a ring's sound from the loop while it runs on the work pool: a player we
/// started is signalled by its pid (`ProcessSlot`), a libcanberra sound is cancelled by its id.
/// A stop that comes before the play starts stops it as it starts. Any thread.
final class SoundStop: Sendable {
  let process = ProcessSlot()
  private struct Canberra: @unchecked Sendable {
    var context: CanberraContext?
    var id: UInt32 = 0
    var stopped = false
  }

  private let canberra = Locked(Canberra())

  var isStopped: Bool { process.isStopped || canberra.withLock { $0.stopped } }

  func stop() {
    process.stop()
    let playing = canberra.withLock { state -> (CanberraContext, UInt32)? in
      state.stopped = true
      return state.context.map { ($0, state.id) }
    }
    if let (context, id) = playing { context.cancel(id) }
  }

  /// A libcanberra sound started as `id` (nil: it ended); cancelled at once when stopped already.
  func playing(_ context: CanberraContext?, id: UInt32) {
    let stopped = canberra.withLock { state -> Bool in
      state.context = context
      state.id = id
      return state.stopped
    }
    if let context, stopped { context.cancel(id) }
  }
}
