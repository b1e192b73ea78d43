import Glibc
public import Testing

/// The bound on each test of a suite that starts a daemon, an event loop, a thread or a child
/// process: one that waits forever on something that never comes fails, named, instead of
/// holding the run. Generous (a test of these suites takes seconds, a few times that on a
/// loaded machine). A test spinning on a thread the task cannot interrupt may outlive it:
/// scripts/swift-test.sh's watchdog bounds the whole run and names what was still running.
extension Trait where Self == TimeLimitTrait {
  public static var testTimeLimit: Self { .timeLimit(.minutes(5)) }

  /// `testTimeLimit` plus `secondsEach` for each unit the environment variable `variable` asks
  /// for (a soak's seconds, a number of crash rounds), for suites whose length is chosen there.
  public static func scaledTimeLimit(by variable: String, secondsEach: Int) -> Self {
    let units = getenv(variable).flatMap { Int(String(cString: $0)) } ?? 0
    return .timeLimit(.minutes(5 + (max(units, 0) * secondsEach + 59) / 60))
  }
}
