/// The rules of ringing, pure: what a ring may be, what it plays, when it ends, when its sound
/// plays again, and whether a ring survives a restart.
///
/// - A ring lasts 5 s ... 30 min, counted from the delivery.
/// - A ring without a sound rings the default sound; one whose sound is `none` is refused.
/// - The sound plays again as soon as a play ends, but never sooner than `minimumGapMillis`
///   after the last one started (a player that exits at once does not spin).
/// - A restarted chimed resumes a ring that had not ended (no end recorded) and whose time has
///   not run out, for the time that is left.
public enum RingRule {
  public static let minimumSeconds: UInt32 = 5
  public static let maximumSeconds: UInt32 = 30 * 60
  /// The least time from one play's start to the next.
  public static let minimumGapMillis: Int64 = 1000
  /// The most times a ring that runs out may snooze its notification (`Ring.autoSnooze`).
  public static let maximumAutoSnoozes: UInt32 = 10

  /// INVALID_ARGUMENT `INVALID_RING` for a duration out of range, a ring that would be silent, or
  /// a ring on a `passive` notification (passive notifications are delivered without sound, so
  /// the ring would never sound: refused at schedule time rather than dropped at delivery).
  public static func validate(_ ring: Ring, sound: Sound?, level: InterruptionLevel = .active, field: String) throws(ChimeError) {
    guard ring.seconds >= minimumSeconds, ring.seconds <= maximumSeconds else {
      throw ChimeError(.invalidRing, "a ring lasts \(minimumSeconds) seconds to \(maximumSeconds / 60) minutes (got \(ring.seconds) s)",
                       field: "\(field).ring.seconds")
    }
    guard ring.autoSnooze <= maximumAutoSnoozes else {
      throw ChimeError(.invalidRing, "a ring snoozes itself at most \(maximumAutoSnoozes) times (got \(ring.autoSnooze))",
                       field: "\(field).ring.auto_snooze")
    }
    if level == .passive {
      throw ChimeError(.invalidRing, "a passive notification never rings (it is delivered without sound); leave out the ring or use another interruption level",
                       field: "\(field).interruption_level")
    }
    if sound?.kind == Sound.Kind.none {
      throw ChimeError(.invalidRing, "a ring repeats the sound, and this sound is none (leave it out to ring the default sound)",
                       field: "\(field).sound")
    }
  }

  /// The request with the default sound when it rings and names no sound.
  public static func withSound(_ request: NotificationRequest) -> NotificationRequest {
    guard request.content.ring != nil, request.content.sound == nil else { return request }
    var request = request
    request.content.sound = .default
    return request
  }

  /// When the ring of `delivered` runs out; nil when it has none.
  public static func endsAt(_ delivered: DeliveredNotification) -> Instant? {
    delivered.request.content.ring.map { delivered.delivered.adding(millis: Int64($0.seconds) * 1000) }
  }

  /// Whether `delivered` rings now: it has a ring, no end was recorded, and its time is not up.
  /// A notification delivered quietly (Do Not Disturb) never rings.
  public static func isRinging(_ delivered: DeliveredNotification, now: Instant) -> Bool {
    guard !delivered.quiet, delivered.ringEnded == nil, let end = endsAt(delivered) else { return false }
    return now < end
  }

  /// How long to snooze `delivered` for when its ring ended `why`: only a ring that ran out
  /// unanswered, with auto-snooze left (the notification was snoozed fewer than
  /// `ring.autoSnooze` times, by hand or by itself), by its category's first snooze duration,
  /// else `SnoozeDuration.standard`. Nil: it stays delivered.
  public static func autoSnoozeSeconds(_ delivered: DeliveredNotification, why: RingEnd) -> Int64? {
    guard why == .timedOut, let ring = delivered.request.content.ring,
          delivered.snoozeCount < Int(ring.autoSnooze) else { return nil }
    return delivered.category?.snoozeSeconds.first ?? SnoozeDuration.standard.seconds
  }

  /// What happens after a play of the ring's sound ended at `now`.
  public enum Next: Hashable, Sendable {
    /// Play again at this instant.
    case play(at: Instant)
    /// Play no more: the ring's time is up (its end is decided by the ring's own deadline).
    case timeUp
    /// The play failed: no more plays (the failure is reported once); the ring still ends
    /// by its end conditions.
    case silent
  }

  public static func next(started: Instant, now: Instant, endsAt: Instant, failed: Bool) -> Next {
    if failed { return .silent }
    let at = max(now, started.adding(millis: minimumGapMillis))
    return at < endsAt ? .play(at: at) : .timeUp
  }
}
