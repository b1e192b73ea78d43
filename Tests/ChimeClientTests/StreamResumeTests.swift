import ChimeClient
import ChimeCore
import Testing

/// Where `chime watch` resumes after chimed restarts, and which ends of a stream it reconnects after.
@Suite struct StreamResumeTests {
  static func event(_ cursor: UInt64, _ kind: Event.Kind = .delivered) -> Event {
    Event(cursor: cursor, at: Instant(unixMillis: 0), kind: kind)
  }

  @Test func theCursorFollowsStoredEventsAndTheMarkerNotLiveOnes() {
    var resume = StreamResume(after: nil)
    #expect(resume.cursor == nil)
    resume.saw(Self.event(0, .presentationFailed))
    #expect(resume.cursor == nil, "a live-only event is no place to resume from")
    resume.saw(Self.event(7, .subscribed))
    #expect(resume.cursor == 7)
    resume.saw(Self.event(9))
    resume.saw(Self.event(0, .presentationFailed))
    #expect(resume.cursor == 9)
    var given = StreamResume(after: 12)
    given.saw(Self.event(5, .subscribed))
    #expect(given.cursor == 12)
  }

  @Test func chimedGoingAwayReconnectsAndAnAnswerDoesNot() {
    for reason in [Reason.shuttingDown, .connectionClosed, .daemonUnavailable] {
      #expect(StreamResume.reopens(after: ChimeError(reason, "x")), "\(reason)")
    }
    for reason in [Reason.configInvalid, .invalidAppID, .tooManySubscribers, .peerNotAllowed] {
      #expect(!StreamResume.reopens(after: ChimeError(reason, "x")), "\(reason)")
    }
  }

  @Test func attemptsWaitLongerUpToTwoSeconds() {
    #expect((0..<8).map(StreamResume.delayMillis(attempt:)) == [100, 200, 400, 800, 1600, 2000, 2000, 2000])
  }
}
