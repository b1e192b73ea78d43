import ChimeSystem

/// A plain thread that runs one closure (the loop, when serving in the background).
struct LoopThread {
  private let body: @Sendable () -> Void

  init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  func start() {
    SystemThread.start(name: "chimed-loop", body)
  }
}
