import ChimeCore
import ChimeStore
import Logging

/// Turns due keys into the store mutations that fire them, on the work pool and outside any
/// write transaction: one read of the due rows, the pure fire plan of each, and the
/// delivery-time look at a custom sound (a few file reads), whose result travels in the mutation.
struct FirePreparation: Sendable {
  /// What one due key became.
  enum Prepared: Sendable {
    case ready(Fire)
    /// The row changed since the key was scheduled: nothing to fire.
    case stale
    case failed(ChimeError)
  }

  /// Looks at a resolved custom sound again, given the app and its registered layout (nil when
  /// it never registered); returns it unchanged when it still plays. Reads files.
  typealias SoundRecheck = @Sendable (_ resolved: SoundResolution, _ app: String, _ registered: AppLayout?) -> SoundResolution

  let database: ChimeDatabase
  let missedGraceMillis: Int64
  let soundRecheck: SoundRecheck
  let logger: Logger
  /// What an app that never asked for authorization may do (`chimed --authorization`).
  var policy: AuthorizationPolicy = .allow
  /// The user's Do Not Disturb setting, asked at each delivery (nil: never on).
  var doNotDisturb: DoNotDisturbBook?

  /// Blocking: call on the work pool. One answer per key, in order. `wokeMicros` is when the
  /// timer woke for these keys; each delivery records how late that was after its due instant.
  func prepare(_ keys: [ScheduleKey], now: Instant, zone: Zone, wokeMicros: Int64? = nil) -> [Prepared] {
    prepareRows(keys, now: now, zone: zone).map { prepared in
      guard let wokeMicros, case .ready(var fire) = prepared, case .deliver(var record, let note) = fire.delivery else { return prepared }
      record.fireLatenessMicros = max(wokeMicros - record.due.unixMillis * 1000, 0)
      fire.delivery = .deliver(record, note: note)
      return .ready(fire)
    }
  }

  private func prepareRows(_ keys: [ScheduleKey], now: Instant, zone: Zone) -> [Prepared] {
    let rows: [DueRow]
    do {
      rows = try database.dueRows(keys)
    } catch {
      return keys.map { _ in .failed(error) }
    }
    var layouts: [String: Result<AppLayout?, ChimeError>] = [:]
    var permissions: [String: Result<AuthorizationOptions, ChimeError>] = [:]
    let quietFrom = doNotDisturb?.source(at: now, zone: zone)
    return rows.map { row -> Prepared in
      switch row {
      case .stale:
        return .stale
      case .unreadable(let error):
        return .failed(error)
      case .current(let row):
        let plan = row.snoozed != nil
          ? FirePlan.decideSnoozed(due: row.key.due, now: now, missedGraceMillis: missedGraceMillis)
          : FirePlan.decide(row.pending.request, due: row.key.due, now: now, missedGraceMillis: missedGraceMillis, zone: zone,
                            firedBefore: row.pending.fireCount)
        guard case .deliver = plan.delivery else {
          return .ready(Fire(row, plan: plan, now: now, sound: row.pending.sound))
        }
        let app = row.key.app
        if permissions[app] == nil { permissions[app] = permissionsNow(app) }
        let allowed: AuthorizationOptions
        switch permissions[app]! {
        case .failure(let error): return .failed(error)
        case .success(let options): allowed = options
        }
        var sound = row.pending.sound
        var notes: [String] = []
        if let named = sound, named.plays == .named {
          if layouts[app] == nil { layouts[app] = registeredLayout(app) }
          switch layouts[app]! {
          case .failure(let error):
            return .failed(error)
          case .success(let registered):
            let checked = soundRecheck(named, app, registered)
            if checked.plays != .named { notes.append("sound: \(checked.reason): \(checked.message)") }
            sound = checked
          }
        }
        let content = row.pending.request.content
        let shape = DeliveryShape.decide(requested: content.sound, resolved: sound, badge: content.badge.map { Int(clamping: $0) },
                                         level: content.interruptionLevel, allowed: allowed, doNotDisturb: quietFrom)
        var fire: Fire
        if let record = row.snoozed {
          notes.insert("snoozed \(row.pending.snoozeCount == 1 ? "once" : "\(row.pending.snoozeCount) times"): delivered again", at: 0)
          fire = Fire(snoozed: row, record: record, plan: plan, now: now, sound: shape.sound, note: (notes + shape.notes).joined(separator: "; "))
        } else {
          fire = Fire(row, plan: plan, now: now, sound: shape.sound, note: (notes + shape.notes).joined(separator: "; "))
        }
        fire.badge = shape.badge
        if shape.level != content.interruptionLevel || shape.quiet, case .deliver(var record, let note) = fire.delivery {
          record.request.content.interruptionLevel = shape.level
          record.quiet = shape.quiet
          fire.delivery = .deliver(record, note: note)
        }
        return .ready(fire)
      }
    }
  }

  /// The permissions in effect for `app` now, under the policy.
  private func permissionsNow(_ app: String) -> Result<AuthorizationOptions, ChimeError> {
    Result { () throws(ChimeError) in DeliveryPermissions(try database.authorization(app), policy: policy).effective }
  }

  /// The app's registered layout; nil when it never registered or its row does not decode (a
  /// registration that does not decode must not stop the delivery: the check then asks the
  /// default layout, which only ever allows the daemon's own apps directory).
  private func registeredLayout(_ app: String) -> Result<AppLayout?, ChimeError> {
    do {
      return .success(try database.app(app))
    } catch where error.code == .internal {
      logger.error("unreadable app registration; sound checked against the default layout",
                   metadata: ["app": "\(app)", "error": "\(error)"])
      return .success(nil)
    } catch {
      return .failure(error)
    }
  }
}
