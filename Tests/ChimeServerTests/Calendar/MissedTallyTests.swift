@testable import ChimeServer
import Testing

/// What the summary of missed calendar alarms says, whatever the timing of the batches.
@Suite struct MissedTallyTests {
  @Test func batchesGatheredTogetherMakeOneCount() {
    var tally = MissedTally()
    tally.note(1)
    tally.note(2)
    #expect(tally.post() == 3)
    #expect(tally.post() == nil, "nothing new: no summary")
  }

  /// Two batches further apart than the gathering: the second summary replaces the first, so
  /// it says what both missed.
  @Test func aSummaryReplacingOneStillStandingCountsItsAlarmsToo() {
    var tally = MissedTally()
    tally.note(1)
    #expect(tally.post() == 1)
    tally.note(1)
    #expect(tally.post() == 2)
    tally.note(0)
    #expect(tally.post() == nil)
  }

  @Test func afterTheUserRemovesTheSummaryTheNextCountsOnlyItsOwn() {
    var tally = MissedTally()
    tally.note(4)
    #expect(tally.post() == 4)
    tally.summaryRemoved()
    tally.note(2)
    #expect(tally.post() == 2)
    // Removing it while a batch gathers keeps that batch.
    tally.note(1)
    tally.summaryRemoved()
    #expect(tally.post() == 1)
  }
}
