/// What a delivery plays and does to the badge under the app's permissions. Pure: the request's
/// sound, what it resolved to, its badge and the permissions in effect are passed in.
///
/// - No sound permission: nothing plays (a note says so).
/// - A critical sound stays critical only with the critical-alert permission; otherwise it plays
///   as a regular one and its resolution says `criticalDowngraded` (no note: it is the rule).
/// - A badge in the content sets the count only with the badge permission (a note says when it
///   does not); absent leaves it, 0 clears it.
/// - A time-sensitive level needs the time-sensitive permission and a critical level the
///   critical-alert permission; otherwise the notification is delivered as active (a note says so).
/// - While Do Not Disturb is on, a delivered `passive` or `active` level (a lowered one included)
///   is delivered quietly: recorded, badge applied, events sent, but no popup and no sound (a
///   note says so). A time-sensitive or critical level that kept its permission breaks through.
public struct DeliveryShape: Hashable, Sendable {
  public var sound: SoundResolution?
  /// The badge count to set, or nil to leave it.
  public var badge: Int?
  /// The interruption level delivered.
  public var level: InterruptionLevel
  /// Why the delivery differs from the content (for the delivered event's note); may be empty.
  public var notes: [String]
  /// Delivered under Do Not Disturb: neither shown nor heard.
  public var quiet: Bool

  public init(sound: SoundResolution?, badge: Int?, level: InterruptionLevel = .active, notes: [String] = [], quiet: Bool = false) {
    self.sound = sound
    self.badge = badge
    self.level = level
    self.notes = notes
    self.quiet = quiet
  }

  /// The note of a delivery that Do Not Disturb (from `source`) kept quiet.
  public static func doNotDisturbNote(_ source: DoNotDisturbSource) -> String {
    "do not disturb (\(source.rawValue)): delivered quietly, no popup and no sound"
  }

  /// What the resolution says when a critical sound plays as a regular one.
  public static let criticalDowngradeNote =
    "critical alerts need the app's critical-alert permission; the sound plays as a regular one"
  /// The note of a delivery whose sound the settings silenced.
  public static let soundOffNote = "sound: off in the app's settings; no sound plays"
  /// The note of a delivery whose badge the settings kept from changing.
  public static let badgeOffNote = "badge: off in the app's settings; the badge is unchanged"

  /// The note of a delivery whose interruption level the settings lowered to active.
  public static func levelNote(_ level: InterruptionLevel) -> String {
    "interruption level: \(level.name) needs the app's \(level == .critical ? "critical-alert" : "time-sensitive") permission; delivered as active"
  }

  /// The delivery of content with `requested` sound (as `resolved`), `badge` and `level`, under
  /// `allowed`, with Do Not Disturb on from `doNotDisturb` (nil: off) at that moment.
  public static func decide(requested: Sound?, resolved: SoundResolution?, badge: Int?, level: InterruptionLevel = .active,
                            allowed: AuthorizationOptions, doNotDisturb: DoNotDisturbSource? = nil) -> DeliveryShape {
    var notes: [String] = []
    var sound = critical(resolved, requested: requested, allowed: allowed)
    if let playing = sound, playing.plays != .none, !allowed.contains(.sound) {
      var silenced = SoundResolution(plays: .none)
      silenced.message = soundOffNote
      sound = silenced
      notes.append(soundOffNote)
    }
    var applied: Int?
    if let badge {
      if allowed.contains(.badge) { applied = badge } else { notes.append(badgeOffNote) }
    }
    var delivered = level
    if (level == .timeSensitive && !allowed.contains(.timeSensitive)) || (level == .critical && !allowed.contains(.criticalAlert)) {
      delivered = .active
      notes.append(levelNote(level))
    }
    var quiet = false
    if let source = doNotDisturb, delivered == .passive || delivered == .active {
      quiet = true
      notes.append(doNotDisturbNote(source))
    }
    return DeliveryShape(sound: sound, badge: applied, level: delivered, notes: notes, quiet: quiet)
  }

  /// `resolved` with the critical rule applied afresh (a downgrade noted earlier is undone
  /// first, so the rule follows the permission of the moment).
  public static func critical(_ resolved: SoundResolution?, requested: Sound?, allowed: AuthorizationOptions) -> SoundResolution? {
    guard var resolution = resolved else { return nil }
    if resolution.criticalDowngraded {
      resolution.criticalDowngraded = false
      if resolution.message == criticalDowngradeNote {
        resolution.message = ""
      } else if resolution.message.hasSuffix("; " + criticalDowngradeNote) {
        resolution.message.removeLast(criticalDowngradeNote.count + 2)
      }
    }
    if requested?.isCritical == true, resolution.plays != .none, !allowed.contains(.criticalAlert) {
      resolution.criticalDowngraded = true
      resolution.message = resolution.message.isEmpty ? criticalDowngradeNote : resolution.message + "; " + criticalDowngradeNote
    }
    return resolution
  }

  /// The notes joined for an event.
  public var note: String { notes.joined(separator: "; ") }
}
