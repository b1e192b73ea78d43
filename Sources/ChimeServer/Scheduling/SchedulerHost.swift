import ChimeCore
import ChimeStore

/// What the scheduler asks of the service that holds it: the zone floating triggers follow,
/// what only the loop knows about a fire before it is committed, and what to do once it is.
/// Loop thread only.
protocol SchedulerHost: AnyObject {
  /// The zone floating calendar triggers follow now.
  var floatingZone: Zone { get }
  /// A prepared fire with what the loop adds just before it goes to the writer (the content
  /// extension live now for its category).
  func stamped(_ fire: Fire) -> Fire
  /// A fire committed: its events, presentation and discarded files follow.
  func fired(_ key: ScheduleKey, _ outcome: Fire.Outcome)
}
