package import ChimeCore

extension EventLoop {
  /// `runBlocking` for work that throws: `then` gets its value or its error on the loop.
  package func runBlocking<T: Sendable>(catching work: @escaping @Sendable () throws(ChimeError) -> T,
                                then: @escaping (Result<T, ChimeError>) -> Void) {
    runBlocking({ Result(catching: work) }, then: then)
  }
}
