import ChimeCore
import Testing

/// The ring's rules with times given by hand: its limits, the sound it rings, when it plays
/// again, when it ends, and what a restart resumes.
@Suite struct RingRuleTests {
  static let t0 = Instant(unixMillis: 1_000_000)

  static func delivered(ring: UInt32?, at: Instant = t0) -> DeliveredNotification {
    var content = NotificationContent(title: "Wake up")
    content.sound = .default
    content.ring = ring.map { Ring(seconds: $0) }
    return DeliveredNotification(request: NotificationRequest(identifier: "wake", content: content), delivered: at, due: at)
  }

  @Test(arguments: [UInt32(5), 60, 1800])
  func durationsFromFiveSecondsToThirtyMinutesAreAccepted(_ seconds: UInt32) throws {
    try RingRule.validate(Ring(seconds: seconds), sound: .default, field: "request.content")
  }

  @Test(arguments: [UInt32(0), 4, 1801, UInt32.max])
  func durationsOutOfRangeAreRefused(_ seconds: UInt32) {
    #expect {
      try RingRule.validate(Ring(seconds: seconds), sound: .default, field: "request.content")
    } throws: { error in
      let e = error as? ChimeError
      return e?.reason == "INVALID_RING" && e?.field == "request.content.ring.seconds" && e?.code == .invalidArgument
    }
  }

  @Test func aSilentRingIsRefusedAndOneWithoutASoundRingsTheDefault() throws {
    #expect(throws: ChimeError.self) { try RingRule.validate(Ring(seconds: 60), sound: Sound.none, field: "c") }
    try RingRule.validate(Ring(seconds: 60), sound: nil, field: "c")
    var content = NotificationContent(title: "t")
    content.ring = Ring(seconds: 60)
    let filled = RingRule.withSound(NotificationRequest(identifier: "a", content: content))
    #expect(filled.content.sound == .default)
    content.sound = .named("bell.wav")
    #expect(RingRule.withSound(NotificationRequest(identifier: "a", content: content)).content.sound == .named("bell.wav"))
    // No ring: the sound stays as given (silent).
    #expect(RingRule.withSound(NotificationRequest(identifier: "a", content: NotificationContent(title: "t"))).content.sound == nil)
  }

  @Test func aRingOnAPassiveNotificationIsRefused() throws {
    #expect {
      try RingRule.validate(Ring(seconds: 120), sound: nil, level: .passive, field: "c")
    } throws: { error in
      (error as? ChimeError)?.reason == "INVALID_RING" && (error as? ChimeError)?.field == "c.interruption_level"
    }
    for level in [InterruptionLevel.active, .timeSensitive, .critical] {
      try RingRule.validate(Ring(seconds: 120), sound: nil, level: level, field: "c")
    }
  }

  @Test func autoSnoozeIsZeroToTen() throws {
    try RingRule.validate(Ring(seconds: 60, autoSnooze: 10), sound: .default, field: "c")
    #expect {
      try RingRule.validate(Ring(seconds: 60, autoSnooze: 11), sound: .default, field: "c")
    } throws: { error in
      (error as? ChimeError)?.reason == "INVALID_RING" && (error as? ChimeError)?.field == "c.ring.auto_snooze"
    }
  }

  /// Only a ring that ran out snoozes itself, while snoozed fewer times than it allows, by the
  /// category's first duration or ten minutes.
  @Test func anUnansweredRingSnoozesByTheCategorysFirstDurationWhileItHasSnoozesLeft() {
    var alarm = Self.delivered(ring: 60)
    alarm.request.content.ring?.autoSnooze = 2
    #expect(RingRule.autoSnoozeSeconds(alarm, why: .timedOut) == 600)
    for why in [RingEnd.answered, .dismissed, .removed] { #expect(RingRule.autoSnoozeSeconds(alarm, why: why) == nil) }
    var category = NotificationCategory(identifier: "alarm")
    category.snoozeSeconds = [300, 3600]
    alarm.category = category
    #expect(RingRule.autoSnoozeSeconds(alarm, why: .timedOut) == 300)
    alarm.snoozeCount = 1
    #expect(RingRule.autoSnoozeSeconds(alarm, why: .timedOut) == 300)
    alarm.snoozeCount = 2
    #expect(RingRule.autoSnoozeSeconds(alarm, why: .timedOut) == nil)
    #expect(RingRule.autoSnoozeSeconds(Self.delivered(ring: 60), why: .timedOut) == nil, "no auto-snooze asked")
  }

  @Test func theValidatorChecksTheRing() {
    var content = NotificationContent(title: "t")
    content.ring = Ring(seconds: 3)
    #expect(throws: ChimeError.self) { try RequestValidator.validate(NotificationRequest(identifier: "a", content: content)) }
    content.ring = Ring(seconds: 30)
    #expect(throws: Never.self) { try RequestValidator.validate(NotificationRequest(identifier: "a", content: content)) }
  }

  @Test func aRingRingsFromItsDeliveryForItsDurationUntilAnEndIsRecorded() {
    let ringing = Self.delivered(ring: 60)
    #expect(RingRule.endsAt(ringing) == Self.t0.adding(millis: 60_000))
    #expect(RingRule.isRinging(ringing, now: Self.t0))
    #expect(RingRule.isRinging(ringing, now: Self.t0.adding(millis: 59_999)))
    #expect(!RingRule.isRinging(ringing, now: Self.t0.adding(millis: 60_000)))
    for end in RingEnd.allCases {
      var ended = ringing
      ended.ringEnded = end
      #expect(!RingRule.isRinging(ended, now: Self.t0), "\(end)")
    }
    var quiet = ringing
    quiet.quiet = true
    #expect(!RingRule.isRinging(quiet, now: Self.t0))
    #expect(RingRule.endsAt(Self.delivered(ring: nil)) == nil)
    #expect(!RingRule.isRinging(Self.delivered(ring: nil), now: Self.t0))
  }

  /// What a restarted chimed resumes: a ring 20 s into its minute rings 40 s more; one whose
  /// minute is over does not.
  @Test func aRestartResumesTheTimeLeft() {
    let ringing = Self.delivered(ring: 60)
    let restarted = Self.t0.adding(millis: 20_000)
    #expect(RingRule.isRinging(ringing, now: restarted))
    #expect(RingRule.endsAt(ringing)!.millis(since: restarted) == 40_000)
    #expect(!RingRule.isRinging(ringing, now: Self.t0.adding(millis: 61_000)))
  }

  @Test func theSoundPlaysAgainWhenAPlayEndsButNeverSoonerThanASecondAfterTheLastStart() {
    let end = Self.t0.adding(millis: 60_000)
    // A 3 s sound: again as soon as it ends.
    #expect(RingRule.next(started: Self.t0, now: Self.t0.adding(millis: 3_000), endsAt: end, failed: false)
      == .play(at: Self.t0.adding(millis: 3_000)))
    // A player that exits at once: again a second after it started, not at once.
    #expect(RingRule.next(started: Self.t0, now: Self.t0.adding(millis: 10), endsAt: end, failed: false)
      == .play(at: Self.t0.adding(millis: RingRule.minimumGapMillis)))
    // The time is up: no more plays.
    #expect(RingRule.next(started: Self.t0.adding(millis: 59_500), now: Self.t0.adding(millis: 59_600), endsAt: end, failed: false)
      == .timeUp)
    // A play that failed: silent from then on.
    #expect(RingRule.next(started: Self.t0, now: Self.t0.adding(millis: 5), endsAt: end, failed: true) == .silent)
  }
}
