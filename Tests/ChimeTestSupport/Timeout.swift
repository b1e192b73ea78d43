public import ChimeCore

/// Runs `operation`, failing with DEADLINE_EXCEEDED if it takes longer than `seconds`.
/// Tests wait for things to happen with this, never with sleeps.
public func withTimeout<T: Sendable>(
  _ seconds: Double, _ what: String = "operation",
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      throw ChimeError(.deadlineExceeded, reason: "TEST_TIMEOUT", "\(what) did not finish within \(seconds) s")
    }
    let first = try await group.next()!
    group.cancelAll()
    return first
  }
}

/// Reads events from a subscription until one matches `predicate` (or the timeout ends).
public func nextEvent(
  _ iterator: inout AsyncThrowingStream<Event, any Error>.AsyncIterator,
  within seconds: Double = 10,
  where predicate: @escaping @Sendable (Event) -> Bool = { _ in true }
) async throws -> Event {
  let box = IteratorBox(iterator)
  let event = try await withTimeout(seconds, "waiting for an event") {
    while let event = try await box.next() {
      if predicate(event) { return event }
    }
    throw ChimeError(.unavailable, reason: "STREAM_ENDED", "the event stream ended")
  }
  iterator = box.iterator
  return event
}

/// The next message of any server stream (or the timeout's error; a stream that ends is
/// UNAVAILABLE `STREAM_ENDED`).
public func nextMessage<Message: Sendable>(
  _ iterator: inout AsyncThrowingStream<Message, any Error>.AsyncIterator, within seconds: Double = 10
) async throws -> Message {
  let box = MessageBox(iterator)
  let message = try await withTimeout(seconds, "waiting for a stream message") {
    guard let message = try await box.next() else {
      throw ChimeError(.unavailable, reason: "STREAM_ENDED", "the stream ended")
    }
    return message
  }
  iterator = box.iterator
  return message
}

private final class MessageBox<Message>: @unchecked Sendable {
  var iterator: AsyncThrowingStream<Message, any Error>.AsyncIterator
  init(_ iterator: AsyncThrowingStream<Message, any Error>.AsyncIterator) { self.iterator = iterator }
  func next() async throws -> Message? { try await iterator.next() }
}

private final class IteratorBox: @unchecked Sendable {
  var iterator: AsyncThrowingStream<Event, any Error>.AsyncIterator
  init(_ iterator: AsyncThrowingStream<Event, any Error>.AsyncIterator) { self.iterator = iterator }
  func next() async throws -> Event? { try await iterator.next() }
}

/// The ChimeError `body` throws, or nil when it returns. (A plain `catch let e as ChimeError`
/// around a typed-throwing async call crashes the Swift 6.3 compiler.)
public func caughtError(_ body: () async throws -> Void) async -> ChimeError? {
  do {
    try await body()
    return nil
  } catch {
    return error as? ChimeError
  }
}
