import ChimeCore
import Logging

/// Rings alarms: a delivered notification whose content has a ring plays its sound again each
/// time a play ends (`RingRule.next`), through the sound player's usual ways (players on the
/// work pool, one at a time; libcanberra), until the ring ends. `end` is the one place a ring
/// ends: answered, dismissed on the desktop, removed, or its time up (this file's own timer,
/// checked against the injected clock). Each end stops the play that is running (a player is
/// signalled by its pid) and is reported through `ended` to be recorded; chimed stopping ends
/// rings without recording them, so a restarted chimed resumes them. A ring also ends once its
/// time left when it started has passed on the monotonic clock, so a wall clock set back does
/// not make it ring longer. Loop thread only.
final class Ringer {
  struct Key: Hashable {
    var app: String
    var identifier: String
  }

  private final class Ringing {
    let deliveredAt: Instant
    /// Known once the presenters decided what Chime plays (nil until then: not yet playing).
    var sound: SoundChoice?
    let endsAt: Instant
    /// The same end on the monotonic clock (`Ringer.monotonicMillis`).
    let monotonicEnd: Int64
    let timer: LoopTimer
    /// The play running now, nil between plays.
    var playing: SoundStop?
    var started = Instant(unixMillis: 0)
    /// When to play again; nil while a play runs, or once plays failed.
    var nextPlay: Instant?

    init(deliveredAt: Instant, endsAt: Instant, monotonicEnd: Int64, timer: LoopTimer) {
      self.deliveredAt = deliveredAt
      self.endsAt = endsAt
      self.monotonicEnd = monotonicEnd
      self.timer = timer
    }
  }

  private let loop: EventLoop
  private let clock: any WallClock
  private let sounds: SoundPlayer?
  private let logger: Logger
  /// Milliseconds on a clock the wall clock's changes do not move.
  private let monotonicMillis: () -> Int64
  private var rings: [Key: Ringing] = [:]
  /// A ring ended (not when chimed stops, nor when a new delivery of the identifier replaces it):
  /// the key, when the ringing notification was delivered, and why.
  var ended: ((Key, Instant, RingEnd) -> Void)?
  /// A play could not be made (reported once per ring: plays stop after a failure).
  var failed: ((PresentationFailure) -> Void)?

  init(loop: EventLoop, clock: any WallClock, sounds: SoundPlayer?, logger: Logger,
       monotonicMillis: @escaping () -> Int64 = Ringer.monotonicNow) {
    self.loop = loop
    self.clock = clock
    self.sounds = sounds
    self.logger = logger
    self.monotonicMillis = monotonicMillis
  }

  /// Milliseconds on the monotonic clock (the standard library's `SuspendingClock`, Linux's
  /// CLOCK_MONOTONIC), from a fixed start: only differences mean anything.
  static func monotonicNow() -> Int64 {
    let elapsed = (SuspendingClock.now - monotonicStart).components
    return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
  }

  private static let monotonicStart = SuspendingClock.now

  /// Starts the ring of `delivered` as its presentation begins, until its end
  /// (`RingRule.endsAt`): from now on an answer, dismissal or removal ends it, even one that
  /// comes before the presenters know what to play (`play(_:for:app:)` then plays nothing). A
  /// ring of the same identifier that was still going is replaced. Nothing happens when its
  /// time is up.
  func start(_ delivered: DeliveredNotification, app: String) {
    let key = Key(app: app, identifier: delivered.request.identifier)
    if let old = rings.removeValue(forKey: key) { silence(old) }
    let now = clock.now()
    guard let endsAt = RingRule.endsAt(delivered), now < endsAt else { return }
    let timer = LoopTimer(loop: loop) { [unowned self] in check() }
    let ring = Ringing(deliveredAt: delivered.delivered, endsAt: endsAt, monotonicEnd: monotonicMillis() + endsAt.millis(since: now),
                       timer: timer)
    rings[key] = ring
    logger.info("ringing", metadata: ["app": "\(app)", "id": "\(key.identifier)", "until": "\(endsAt)"])
    arm(ring, now: clock.now())
  }

  /// The presenters decided that Chime plays `sound` for `delivered`: its ring, if it still
  /// rings, plays it now and again after each play.
  func play(_ sound: SoundChoice, for delivered: DeliveredNotification, app: String) {
    let key = Key(app: app, identifier: delivered.request.identifier)
    guard let ring = rings[key], ring.deliveredAt == delivered.delivered, ring.sound == nil else { return }
    ring.sound = sound
    play(key, ring)
  }

  /// Ends the ring of `identifier`, if it rings, for `why`: its play is stopped and the end
  /// reported.
  func end(app: String, identifier: String, _ why: RingEnd) {
    let key = Key(app: app, identifier: identifier)
    guard let ring = rings.removeValue(forKey: key) else { return }
    silence(ring)
    logger.info("ring ended", metadata: ["app": "\(app)", "id": "\(identifier)", "why": "\(why.rawValue)"])
    ended?(key, ring.deliveredAt, why)
  }

  /// Looks at every ring against the clock: a ring whose time is up ends (timed out), one whose
  /// next play is due plays. The timers call it; so does a change of the clock.
  func check() {
    let now = clock.now(), monotonic = monotonicMillis()
    for (key, ring) in rings {
      if now >= ring.endsAt || monotonic >= ring.monotonicEnd {
        end(app: key.app, identifier: key.identifier, .timedOut)
      } else if let next = ring.nextPlay, now >= next || next.millis(since: now) > RingRule.minimumGapMillis {
        // Due, or planned further ahead than a play ever is: the clock was set back.
        play(key, ring)
      } else {
        arm(ring, now: now)
      }
    }
  }

  /// chimed is stopping: every play stops; nothing is recorded (the rings resume on restart).
  func stop() {
    for ring in rings.values { silence(ring) }
    rings.removeAll()
  }

  /// Stops the ring's timer and its play: a player is signalled at once; a libcanberra sound is
  /// cancelled on the work pool (the context's lock may be held by another sound starting).
  private func silence(_ ring: Ringing) {
    ring.timer.close()
    if let playing = ring.playing {
      playing.stopProcess()
      loop.runBlocking({ playing.stop() }, then: { _ in })
    }
    ring.playing = nil
  }

  private func play(_ key: Key, _ ring: Ringing) {
    let now = clock.now()
    ring.nextPlay = nil
    ring.started = now
    arm(ring, now: now)
    guard let sounds, let sound = ring.sound, !sound.isSilent else { return }
    let stop = SoundStop()
    ring.playing = stop
    sounds.playOnce(sound, app: key.app, identifier: key.identifier, stop: stop,
                    failed: { [weak self] failure in self?.failed?(failure) },
                    ended: { [weak self] played in self?.played(key, stop, played) })
  }

  /// One play is over: the next is planned, unless the ring ended meanwhile.
  private func played(_ key: Key, _ stop: SoundStop, _ played: Bool) {
    guard let ring = rings[key], ring.playing === stop else { return }
    ring.playing = nil
    let now = clock.now()
    switch RingRule.next(started: ring.started, now: now, endsAt: ring.endsAt, failed: !played) {
    case .play(let at):
      ring.nextPlay = at
      if at <= now { play(key, ring) } else { arm(ring, now: now) }
    case .timeUp, .silent:
      arm(ring, now: now)
    }
  }

  /// The ring's timer, for its next play or its end, whichever is sooner.
  private func arm(_ ring: Ringing, now: Instant) {
    let next = min(ring.nextPlay ?? ring.endsAt, ring.endsAt)
    let left = min(next.millis(since: now), ring.monotonicEnd - monotonicMillis())
    ring.timer.arm(afterMillis: UInt64(max(0, left)))
  }
}
