import Glibc
public import Testing

/// Polls `condition` every 10 ms, for at most `seconds`, for an effect that happens off the
/// caller's thread (on the daemon's loop or work pool); records an issue at the caller and
/// returns false when it never comes. Waits by sleeping the task, never a thread.
///
/// - Throws: `CancellationError` when the task is cancelled while waiting.
@discardableResult
public func waitUntil(within seconds: Double = 2, _ condition: () -> Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
  for _ in 0..<Int(seconds * 100) {
    if condition() { return true }
    try await Task.sleep(for: .milliseconds(10))
  }
  if condition() { return true }
  Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
  return false
}

/// `waitUntil` for synchronous tests: the same bounded 10 ms polling, blocking the calling
/// thread between looks.
@discardableResult
public func pollUntil(within seconds: Double = 2, _ condition: () -> Bool,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
  for _ in 0..<Int(seconds * 100) {
    if condition() { return true }
    usleep(10_000)
  }
  if condition() { return true }
  Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
  return false
}
