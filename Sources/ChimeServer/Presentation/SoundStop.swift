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

  /// Signals the player, if one runs (cheap: the loop may call it).
  func stopProcess() { process.stop() }

  /// Stops the play whichever way it runs; a libcanberra cancel may wait for the context's
  /// lock, so the loop leaves this to the work pool.
  func stop() {
    process.stop()
    // Under the lock: `playing(nil, ...)` waits for a cancel in progress, so the play's end
    // watcher is freed only once no cancel can reach it.
    canberra.withLock { state in
      state.stopped = true
      if let context = state.context { context.cancel(state.id) }
    }
  }

  /// A libcanberra sound started as `id` (nil: it ended); cancelled at once when stopped already.
  func playing(_ context: CanberraContext?, id: UInt32) {
    canberra.withLock { state in
      state.context = context
      state.id = id
      if let context, state.stopped { context.cancel(id) }
    }
  }
}
