/// What a calendar's summary of missed alarms counts. Missed alarms arrive in batches (the
/// scheduler's skips, a scan's) and are gathered for a moment before one summary is posted;
/// a summary replaces the one before it, so while that one stands (the user has not removed
/// it) the new one counts its alarms too. Otherwise two batches further apart than the
/// gathering (a slow start on a busy machine) would end with "1 calendar alarm was missed"
/// where two were.
struct MissedTally: Equatable {
  /// Alarms noted since the last summary was posted.
  private(set) var waiting = 0
  /// What the standing summary says: 0 when none stands.
  private(set) var shown = 0

  /// `count` more alarms were too late to show.
  mutating func note(_ count: Int) {
    waiting += max(count, 0)
  }

  /// The count for the summary to post now, nil when nothing new was missed.
  mutating func post() -> Int? {
    guard waiting > 0 else { return nil }
    shown += waiting
    waiting = 0
    return shown
  }

  /// The user removed the summary: the next one counts only what is missed after it.
  mutating func summaryRemoved() {
    shown = 0
  }
}
