import ChimeCore
import ChimeServer

/// A refused HTTP/2 peer's connection with the bound on its wait: a peer that sends no request
/// in time gets the GOAWAY alone. libuv runs due timers before it reads sockets, so the first
/// expiry waits one more turn of the loop (1 ms): a request that arrived in time while the
/// loop was busy is read, and answered with the refusal, first. Loop thread only.
final class GRPCRefusalWait: StreamConnection {
  var connection: GRPCConnection?
  private let error: ChimeError
  private var timer: LoopTimer?
  private var looked = false

  init(loop: EventLoop, error: ChimeError, waitMillis: UInt64) {
    self.error = error
    let timer = LoopTimer(loop: loop) { [weak self] in self?.waitEnded() }
    timer.arm(afterMillis: waitMillis)
    self.timer = timer
  }

  private func waitEnded() {
    if !looked, let timer {
      looked = true
      return timer.arm(afterMillis: 1)
    }
    endWait()
    connection?.finishAll(with: error)
  }

  private func endWait() {
    timer?.close()
    timer = nil
  }

  func noteDraining() { connection?.noteDraining() }

  func finishAll(with error: ChimeError) {
    endWait()
    connection?.finishAll(with: error)
  }

  func clockChanged() { connection?.clockChanged() }

  func closed(_ reason: String) {
    endWait()
    connection?.closed(reason)
  }
}
