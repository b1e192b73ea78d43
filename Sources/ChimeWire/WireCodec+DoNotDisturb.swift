public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// The user's Do Not Disturb setting: `SetDoNotDisturb` and `GetDoNotDisturb`.
extension WireCodec {
  /// `SetDoNotDisturbRequest`.
  public static func encodeSetDoNotDisturbRequest(_ change: DoNotDisturbChange) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__set_do_not_disturb_request__init)
      switch change.manual {
      case .on(let until):
        m.pointee.manual_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__MANUAL_SET_MANUAL_ON
        m.pointee.manual_on = 1
        m.pointee.manual_until_unix_ms = until?.unixMillis ?? 0
      case .off:
        m.pointee.manual_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__MANUAL_SET_MANUAL_ON
        m.pointee.manual_on = 0
      case nil: break
      }
      switch change.schedule {
      case .set(let schedule):
        m.pointee.schedule_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_SCHEDULE
        m.pointee.schedule = buildSchedule(schedule, in: arena)
      case .clear:
        m.pointee.schedule_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_CLEAR_SCHEDULE
        m.pointee.clear_schedule = 1
      case nil: break
      }
      if let follow = change.followDesktop {
        m.pointee.follow_desktop_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__FOLLOW_DESKTOP_SET_FOLLOW_DESKTOP
        m.pointee.follow_desktop = follow ? 1 : 0
      }
      if let summary = change.summary {
        m.pointee.summary_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SUMMARY_SET_SUMMARY
        m.pointee.summary = summary ? 1 : 0
      }
      return m
    }
  }

  /// A schedule's values are checked by the service (`DoNotDisturbChange.validate`), which
  /// names the reason; only what cannot be held is refused here.
  public static func decodeSetDoNotDisturbRequest(_ bytes: [UInt8]) throws(ChimeError) -> DoNotDisturbChange {
    try ProtoMessage.decode(bytes, as: "SetDoNotDisturbRequest", with: chime__v1__set_do_not_disturb_request__unpack) { m throws(ChimeError) in
      let r = m.pointee
      var change = DoNotDisturbChange()
      if r.manual_set_case == CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__MANUAL_SET_MANUAL_ON {
        change.manual = r.manual_on != 0 ? .on(until: r.manual_until_unix_ms != 0 ? Instant(unixMillis: r.manual_until_unix_ms) : nil) : .off
      }
      if r.schedule_set_case == CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_SCHEDULE {
        change.schedule = .set(try schedule(r.schedule?.pointee, "schedule"))
      } else if r.schedule_set_case == CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_CLEAR_SCHEDULE, r.clear_schedule != 0 {
        change.schedule = .clear
      }
      if r.follow_desktop_set_case == CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__FOLLOW_DESKTOP_SET_FOLLOW_DESKTOP {
        change.followDesktop = r.follow_desktop != 0
      }
      if r.summary_set_case == CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SUMMARY_SET_SUMMARY {
        change.summary = r.summary != 0
      }
      return change
    }
  }

  /// `DoNotDisturbState`.
  public static func encodeDoNotDisturbState(_ report: DoNotDisturbReport) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__do_not_disturb_state__init)
      m.pointee.manual_on = report.setting.manual != nil ? 1 : 0
      m.pointee.manual_until_unix_ms = report.setting.manual?.until?.unixMillis ?? 0
      if let schedule = report.setting.schedule { m.pointee.schedule = buildSchedule(schedule, in: arena) }
      m.pointee.active = report.status.active ? 1 : 0
      m.pointee.source = switch report.status.source {
      case .manual: CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_MANUAL
      case .schedule: CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_SCHEDULE
      case .desktop: CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_DESKTOP
      case nil: CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_UNSPECIFIED
      }
      m.pointee.until_unix_ms = report.status.until?.unixMillis ?? 0
      m.pointee.next_start_unix_ms = report.status.nextStart?.unixMillis ?? 0
      arena.assign(&m.pointee.time_zone, report.timeZone)
      m.pointee.follow_desktop = report.setting.followDesktop ? 1 : 0
      m.pointee.summary = report.setting.summary ? 1 : 0
      arena.assign(&m.pointee.desktop, report.status.desktop?.rawValue ?? "")
      return m
    }
  }

  public static func decodeDoNotDisturbState(_ bytes: [UInt8]) throws(ChimeError) -> DoNotDisturbReport {
    try ProtoMessage.decode(bytes, as: "DoNotDisturbState", with: chime__v1__do_not_disturb_state__unpack) { m throws(ChimeError) in
      let r = m.pointee
      var setting = DoNotDisturb(followDesktop: r.follow_desktop != 0, summary: r.summary != 0)
      if r.manual_on != 0 {
        setting.manual = .init(until: r.manual_until_unix_ms != 0 ? Instant(unixMillis: r.manual_until_unix_ms) : nil)
      }
      if let s = r.schedule { setting.schedule = try schedule(s.pointee, "schedule") }
      let source: DoNotDisturbSource? = switch r.source {
      case CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_UNSPECIFIED: nil
      case CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_MANUAL: .manual
      case CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_SCHEDULE: .schedule
      case CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_DESKTOP: .desktop
      default: throw WireErrors.unknownEnum(r.source.rawValue, field: "source")
      }
      let desktopText = try ProtoMessage.text(r.desktop, "desktop")
      // A detail this version does not know is not named (the source still says desktop).
      let desktop = DesktopQuiet(rawValue: desktopText)
      let status = DoNotDisturbStatus(active: r.active != 0, source: source,
                                      until: r.until_unix_ms != 0 ? Instant(unixMillis: r.until_unix_ms) : nil,
                                      nextStart: r.next_start_unix_ms != 0 ? Instant(unixMillis: r.next_start_unix_ms) : nil,
                                      desktop: desktop)
      return DoNotDisturbReport(setting: setting, status: status, timeZone: try ProtoMessage.text(r.time_zone, "time_zone"))
    }
  }

  private static func buildSchedule(_ s: DoNotDisturbSchedule, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__DoNotDisturbSchedule> {
    let m = arena.message(chime__v1__do_not_disturb_schedule__init)
    m.pointee.start_minute = UInt32(clamping: s.startMinute)
    m.pointee.end_minute = UInt32(clamping: s.endMinute)
    m.pointee.days = s.days == .everyDay ? 0 : UInt32(s.days.rawValue)
    return m
  }

  /// Days 0 is every day; values beyond a day or a week are kept for the service to refuse
  /// with its reason (clamped into the types that hold them).
  private static func schedule(_ m: Chime__V1__DoNotDisturbSchedule?, _ field: String) throws(ChimeError) -> DoNotDisturbSchedule {
    guard let m else { throw ChimeError(.invalidDNDSchedule, "the schedule is missing", field: field) }
    let days = m.days == 0 ? DoNotDisturbDays.everyDay : DoNotDisturbDays(rawValue: UInt8(clamping: m.days > 0xFF ? 0x80 : m.days))
    return DoNotDisturbSchedule(startMinute: Int(clamping: m.start_minute), endMinute: Int(clamping: m.end_minute), days: days)
  }
}
