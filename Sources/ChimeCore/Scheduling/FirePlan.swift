/// What a due request becomes: delivered (on time or marked missed) or skipped, and when it
/// fires next. Pure: the request, the instant it was due, now, the missed-fire grace and the
/// zone are passed in; the store carries the plan out.
public struct FirePlan: Hashable, Sendable {
  public enum Delivery: Hashable, Sendable {
    /// Deliver; `missed` when the fire is later than the grace allows.
    case deliver(missed: Bool)
    /// A missed fire the request's policy does not deliver; the note says why.
    case skip(note: String)
  }

  public var delivery: Delivery
  /// The next instant of a repeating trigger (strictly after `now` and `due`), or nil when the
  /// request ends with this fire.
  public var next: Instant?

  public init(delivery: Delivery, next: Instant?) {
    self.delivery = delivery
    self.next = next
  }

  /// Plans the fire of `request`, due at `due`, seen at `now`.
  ///
  /// A fire later than `missedGraceMillis` is missed and follows the request's
  /// `MissedFirePolicy`: deliver marked missed, skip, or deliver only if late by less than a
  /// bound. A repeating trigger is advanced past `now` (missed occurrences are not replayed);
  /// `zone` is the one floating calendar triggers follow now.
  /// `firedBefore`: how many times the request fired before this fire (a trigger with a
  /// `RepeatEnd` count stops after its last).
  public static func decide(_ request: NotificationRequest, due: Instant, now: Instant, missedGraceMillis: Int64,
                            zone: Zone, firedBefore: UInt64 = 0) -> FirePlan {
    let lateness = now.millis(since: due)
    let delivery: Delivery
    if lateness > missedGraceMillis {
      delivery = skipNote(request.missedFire, latenessMillis: lateness).map(Delivery.skip) ?? .deliver(missed: true)
    } else {
      delivery = .deliver(missed: false)
    }
    return FirePlan(delivery: delivery, next: TriggerPlanner.nextFire(of: request.trigger, due: due, now: now, zone: zone,
                                                                        fired: firedBefore + 1))
  }

  /// Plans the return of a snoozed notification due at `due`, seen at `now`: always delivered
  /// (the user asked to be reminded; the request's missed-fire policy is about its trigger),
  /// marked missed when later than the grace allows, and never again (`next` nil).
  public static func decideSnoozed(due: Instant, now: Instant, missedGraceMillis: Int64) -> FirePlan {
    FirePlan(delivery: .deliver(missed: now.millis(since: due) > missedGraceMillis), next: nil)
  }

  /// Why a missed fire is not delivered under `policy`, or nil when it is.
  static func skipNote(_ policy: MissedFirePolicy, latenessMillis: Int64) -> String? {
    let late = Double(latenessMillis) / 1000
    switch policy.action {
    case .deliver:
      return nil
    case .skip:
      return "missed by \(late) s; the request's missed-fire policy is skip"
    case .deliverIfLateByLessThan:
      guard Double(latenessMillis) >= policy.maxLatenessSeconds * 1000 else { return nil }
      return "missed by \(late) s; the request's missed-fire policy delivers only if late by less than \(policy.maxLatenessSeconds) s"
    }
  }
}
