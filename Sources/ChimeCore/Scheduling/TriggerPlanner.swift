/// Computes fire instants for triggers. Pure: "now" is passed in.
public enum TriggerPlanner {
  /// The first instant a request added at `added` fires; `added` itself for no trigger.
  public static func firstFire(of trigger: Trigger?, added: Instant) throws(ChimeError) -> Instant {
    switch trigger {
    case nil:
      return added
    case .timeInterval(let t)?:
      return added.adding(seconds: t.seconds)
    case .calendar?:
      throw .unimplemented("calendar triggers")
    }
  }

  /// After a fire that was due at `due`, the next instant strictly after `now` (and after
  /// `due`), or nil when the trigger does not repeat. A repeating trigger that missed several
  /// occurrences is advanced past them, not replayed.
  public static func nextFire(of trigger: Trigger?, due: Instant, now: Instant) -> Instant? {
    guard let trigger, trigger.repeats else { return nil }
    switch trigger {
    case .timeInterval(let t):
      let step = max(Int64((t.seconds * 1000).rounded()), 1)
      let floor = max(now, due)
      // Smallest k >= 1 with due + k*step > floor.
      let behind = floor.millis(since: due)
      let k = behind / step + 1
      return due.adding(millis: k * step)
    case .calendar:
      return nil
    }
  }
}
