import ChimeCore
import Testing

/// What a delivery plays and does to the badge under the app's permissions, as a table.
@Suite struct DeliveryShapeTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var requested: Sound?
    var resolved: SoundResolution?
    var badge: Int?
    var allowed: AuthorizationOptions
    var plays: SoundResolution.Plays?
    var critical: Bool
    var appliedBadge: Int?
    var notes: [String]
    var testDescription: String { name }
  }

  static let playsDefault = SoundResolution(plays: .default)
  static let downgradedEarlier: SoundResolution = {
    var r = SoundResolution(plays: .default)
    r.criticalDowngraded = true
    r.message = DeliveryShape.criticalDowngradeNote
    return r
  }()

  static let cases: [Case] = [
    Case(name: "sound allowed plays", requested: .default, resolved: playsDefault, badge: nil, allowed: [.sound],
         plays: .default, critical: false, appliedBadge: nil, notes: []),
    Case(name: "sound off silences with a note", requested: .default, resolved: playsDefault, badge: nil, allowed: [.alert],
         plays: .some(.none), critical: false, appliedBadge: nil, notes: [DeliveryShape.soundOffNote]),
    Case(name: "no sound asked: nothing to note", requested: nil, resolved: nil, badge: nil, allowed: [],
         plays: nil, critical: false, appliedBadge: nil, notes: []),
    Case(name: "sound none stays none without a note", requested: Sound.none, resolved: SoundResolution(plays: .none), badge: nil, allowed: [],
         plays: .some(.none), critical: false, appliedBadge: nil, notes: []),
    Case(name: "critical without criticalAlert is downgraded", requested: Sound(kind: .defaultCritical), resolved: playsDefault, badge: nil,
         allowed: [.sound], plays: .default, critical: true, appliedBadge: nil, notes: []),
    Case(name: "critical with criticalAlert stays critical", requested: Sound(kind: .defaultCritical), resolved: downgradedEarlier, badge: nil,
         allowed: [.sound, .criticalAlert], plays: .default, critical: false, appliedBadge: nil, notes: []),
    Case(name: "critical but sound off: silent", requested: Sound(kind: .defaultCritical), resolved: playsDefault, badge: nil,
         allowed: [.criticalAlert], plays: .some(.none), critical: false, appliedBadge: nil, notes: [DeliveryShape.soundOffNote]),
    Case(name: "badge allowed sets", requested: nil, resolved: nil, badge: 4, allowed: [.badge],
         plays: nil, critical: false, appliedBadge: 4, notes: []),
    Case(name: "badge 0 clears", requested: nil, resolved: nil, badge: 0, allowed: [.badge],
         plays: nil, critical: false, appliedBadge: 0, notes: []),
    Case(name: "badge off leaves it with a note", requested: nil, resolved: nil, badge: 4, allowed: [.sound],
         plays: nil, critical: false, appliedBadge: nil, notes: [DeliveryShape.badgeOffNote]),
    Case(name: "no badge in the content leaves it", requested: nil, resolved: nil, badge: nil, allowed: [.badge],
         plays: nil, critical: false, appliedBadge: nil, notes: []),
  ]

  @Test(arguments: cases) func shapesTheDelivery(_ c: Case) {
    let shape = DeliveryShape.decide(requested: c.requested, resolved: c.resolved, badge: c.badge, allowed: c.allowed)
    #expect(shape.sound?.plays == c.plays)
    #expect((shape.sound?.criticalDowngraded ?? false) == c.critical)
    if let sound = shape.sound, !c.critical { #expect(!sound.message.contains(DeliveryShape.criticalDowngradeNote)) }
    #expect(shape.badge == c.appliedBadge)
    #expect(shape.notes == c.notes)
  }

  static let levels: [(InterruptionLevel, AuthorizationOptions, InterruptionLevel)] = [
    (.passive, [], .passive),
    (.active, [], .active),
    (.timeSensitive, [.alert], .active),
    (.timeSensitive, [.timeSensitive], .timeSensitive),
    (.critical, [.timeSensitive], .active),
    (.critical, [.criticalAlert], .critical),
  ]

  @Test(arguments: levels) func interruptionLevelsNeedTheirPermission(_ c: (InterruptionLevel, AuthorizationOptions, InterruptionLevel)) {
    let (level, allowed, delivered) = c
    let shape = DeliveryShape.decide(requested: nil, resolved: nil, badge: nil, level: level, allowed: allowed)
    #expect(shape.level == delivered)
    #expect(shape.notes == (level == delivered ? [] : [DeliveryShape.levelNote(level)]))
  }

  @Test func theCriticalRuleIsIdempotentAndKeepsOtherMessages() {
    var r = SoundResolution(plays: .default)
    r.message = "the sound file was removed"
    let once = DeliveryShape.critical(r, requested: Sound(kind: .criticalNamed, name: "a.wav"), allowed: [])
    let twice = DeliveryShape.critical(once, requested: Sound(kind: .criticalNamed, name: "a.wav"), allowed: [])
    #expect(once == twice)
    #expect(once?.message == "the sound file was removed; " + DeliveryShape.criticalDowngradeNote)
    let granted = DeliveryShape.critical(once, requested: Sound(kind: .criticalNamed, name: "a.wav"), allowed: [.criticalAlert])
    #expect(granted?.message == "the sound file was removed")
    #expect(granted?.criticalDowngraded == false)
  }
}

/// Do Not Disturb at delivery: passive and active are quiet, time-sensitive and critical break
/// through with their permission, and a lowered level is quiet.
@Suite struct DeliveryShapeDoNotDisturbTests {
  static let cases: [(InterruptionLevel, AuthorizationOptions, DoNotDisturbSource?, InterruptionLevel, Bool)] = [
    (.passive, [.alert, .sound], .manual, .passive, true),
    (.active, [.alert, .sound], .manual, .active, true),
    (.active, [.alert, .sound], .schedule, .active, true),
    (.active, [.alert, .sound], nil, .active, false),
    (.timeSensitive, [.alert, .sound, .timeSensitive], .manual, .timeSensitive, false),
    (.timeSensitive, [.alert, .sound], .manual, .active, true),
    (.critical, [.alert, .sound, .criticalAlert], .schedule, .critical, false),
    (.critical, [.alert, .sound, .timeSensitive], .manual, .active, true),
    (.passive, [.alert, .sound], nil, .passive, false),
  ]

  @Test(arguments: cases) func quietUnderDoNotDisturb(_ c: (InterruptionLevel, AuthorizationOptions, DoNotDisturbSource?, InterruptionLevel, Bool)) {
    let (level, allowed, source, delivered, quiet) = c
    let shape = DeliveryShape.decide(requested: .default, resolved: SoundResolution(plays: .default), badge: 3, level: level,
                                     allowed: allowed, doNotDisturb: source)
    #expect(shape.level == delivered)
    #expect(shape.quiet == quiet)
    // The badge still applies, quiet or not.
    #expect(shape.badge == nil || shape.badge == 3)
    let dndNote = source.map { DeliveryShape.doNotDisturbNote($0) }
    #expect(shape.notes.contains { $0 == dndNote } == quiet)
    if quiet { #expect(shape.note.contains("do not disturb")) }
  }

  @Test func aQuietDeliveryIsNeitherShownNorHeard() {
    var delivered = DeliveredNotification(request: NotificationRequest(identifier: "a", content: NotificationContent(title: "t")),
                                          delivered: Instant(unixMillis: 0), due: Instant(unixMillis: 0), sound: SoundResolution(plays: .default))
    let loud = PresentationDecision.decide(delivered, allowed: [.alert, .sound])
    #expect(loud == PresentationDecision(show: true, sound: .themeDefault(volume: nil)))
    delivered.quiet = true
    #expect(PresentationDecision.decide(delivered, allowed: [.alert, .sound]) == PresentationDecision(show: false, sound: .silent))
  }
}
