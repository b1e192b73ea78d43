/// Do Not Disturb's scheduled windows: from a wall-clock time to another (`22:00-07:00`; an end
/// at or before the start is on the next day), starting on a set of weekdays.
///
/// Times are floating wall-clock times, read in the zone passed in, with the calendar rule's
/// clock-change behaviour (`CalendarEngine`, `.nextValid` and `.first`): a start or an end
/// skipped by a forward jump takes effect at the end of the jump (02:30 on Europe/Berlin's
/// spring night is 03:00 +02:00), and one that occurs twice takes effect at its first occurrence.
/// A window belongs to the weekday it starts on: `22:00-07:00` on `mon-fri` runs from Monday
/// night to Saturday morning. A day the zone skipped whole has no window.
public struct DoNotDisturbSchedule: Hashable, Sendable {
  /// Minutes after midnight, 0...1439.
  public var startMinute: Int
  /// Minutes after midnight, 0...1439; not equal to `startMinute`.
  public var endMinute: Int
  public var days: DoNotDisturbDays

  /// A schedule from valid values (see `parse` and `validate`).
  public init(startMinute: Int, endMinute: Int, days: DoNotDisturbDays = .everyDay) {
    self.startMinute = startMinute
    self.endMinute = endMinute
    self.days = days
  }

  /// `22:00-07:00` and a weekday set such as `mon-fri` (nil or empty: every day).
  ///
  /// - Throws: `INVALID_DND_SCHEDULE` for a malformed time or a window that starts where it
  ///   ends; `INVALID_DND_DAYS` for an unknown weekday.
  public static func parse(_ window: String, days: String? = nil, field: String = "schedule") throws(ChimeError) -> DoNotDisturbSchedule {
    let parts = window.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw ChimeError(.invalidDNDSchedule, "a Do Not Disturb window is START-END in 24-hour time, e.g. 22:00-07:00; got \"\(window)\"",
                       field: field)
    }
    let start = try minute(of: String(parts[0]), field: field)
    let end = try minute(of: String(parts[1]), field: field)
    let set = try days.map { text throws(ChimeError) in try DoNotDisturbDays.parse(text, field: field + ".days") } ?? .everyDay
    let schedule = DoNotDisturbSchedule(startMinute: start, endMinute: end, days: set)
    try schedule.validate(field: field)
    return schedule
  }

  /// - Throws: `INVALID_DND_SCHEDULE` for a time outside the day or a window that starts where
  ///   it ends; `INVALID_DND_DAYS` for no weekday or bits that name none.
  public func validate(field: String = "schedule") throws(ChimeError) {
    for (name, value) in [("start", startMinute), ("end", endMinute)] where !(0..<1440).contains(value) {
      throw ChimeError(.invalidDNDSchedule, "the window's \(name) must be a time of day (00:00 to 23:59); got minute \(value)",
                       field: "\(field).\(name)")
    }
    if startMinute == endMinute {
      throw ChimeError(.invalidDNDSchedule,
                       "the window \(Self.text(startMinute))-\(Self.text(endMinute)) starts where it ends; for all day use `chime dnd on`",
                       field: field)
    }
    if days.isEmpty || !DoNotDisturbDays.everyDay.isSuperset(of: days) {
      throw ChimeError(.invalidDNDDays, "the schedule needs at least one weekday (mon ... sun)", field: "\(field).days")
    }
  }

  /// `22:00-07:00`.
  public var windowText: String { Self.text(startMinute) + "-" + Self.text(endMinute) }

  /// `22:00`.
  public static func text(_ minute: Int) -> String {
    let h = minute / 60, m = minute % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
  }

  /// `HH:MM` (or `H:MM`) in 24-hour time as minutes after midnight.
  static func minute(of text: String, field: String) throws(ChimeError) -> Int {
    let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
    if pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2,
       pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
       let h = Int(pieces[0]), let m = Int(pieces[1]), h < 24, m < 60 {
      return h * 60 + m
    }
    throw ChimeError(.invalidDNDSchedule, "\"\(text)\" is not a time of day in 24-hour HH:MM (00:00 to 23:59)", field: field)
  }

  // MARK: Windows

  /// One window: the instants `start ..< end`.
  struct Window: Equatable {
    var start: Int64
    var end: Int64
  }

  /// The window that starts on local day `day` (days since 1970-01-01), or nil when the
  /// weekday is not in the set, the zone skipped the day, or clock changes left it empty.
  func window(startingOn day: Int, table: ZoneTable) -> Window? {
    guard days.contains(DoNotDisturbDays(isoWeekday: CivilDate.isoWeekday(day))), table.showsDay(day) else { return nil }
    let base = Int64(day) * CivilDate.secondsPerDay
    let endBase = endMinute > startMinute ? base : base + CivilDate.secondsPerDay
    let start = table.resolve(wall: base + Int64(startMinute) * 60).first
    let end = table.resolve(wall: endBase + Int64(endMinute) * 60).first
    return start < end ? Window(start: start, end: end) : nil
  }

  /// The local day number of `t` (UTC seconds) in the table's zone.
  private static func localDay(_ t: Int64, table: ZoneTable) -> Int {
    Int(CivilDate.floorDiv(t + Int64(table.offset(at: t)), CivilDate.secondsPerDay))
  }

  /// The window holding `instant`, with its end, or nil.
  func window(containing instant: Instant, table: ZoneTable) -> (start: Instant, end: Instant)? {
    let t = CivilDate.floorDiv(instant.unixMillis, 1000)
    let today = Self.localDay(t, table: table)
    // A window lasts under a day of wall time, plus at most a few hours of clock changes: one
    // that holds `t` started today, yesterday or (around a large jump) the day before.
    for day in stride(from: today, through: today - 2, by: -1) {
      if let w = window(startingOn: day, table: table), w.start <= t, t < w.end {
        return (Instant(unixMillis: w.start * 1000), Instant(unixMillis: w.end * 1000))
      }
    }
    return nil
  }

  /// The first window start strictly after `instant`, or nil (never for a valid schedule in a
  /// zone that shows its days).
  func nextStart(after instant: Instant, table: ZoneTable) -> Instant? {
    let t = CivilDate.floorDiv(instant.unixMillis, 1000)
    let today = Self.localDay(t, table: table)
    for day in (today - 1)...(today + 9) {
      if let w = window(startingOn: day, table: table), w.start * 1000 > instant.unixMillis {
        return Instant(unixMillis: w.start * 1000)
      }
    }
    return nil
  }
}

/// A set of weekdays, Monday to Sunday.
public struct DoNotDisturbDays: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let monday = DoNotDisturbDays(rawValue: 1 << 0)
  public static let tuesday = DoNotDisturbDays(rawValue: 1 << 1)
  public static let wednesday = DoNotDisturbDays(rawValue: 1 << 2)
  public static let thursday = DoNotDisturbDays(rawValue: 1 << 3)
  public static let friday = DoNotDisturbDays(rawValue: 1 << 4)
  public static let saturday = DoNotDisturbDays(rawValue: 1 << 5)
  public static let sunday = DoNotDisturbDays(rawValue: 1 << 6)
  public static let everyDay = DoNotDisturbDays(rawValue: 0x7F)

  /// ISO numbering: 1 = Monday ... 7 = Sunday.
  public init(isoWeekday: Int) { self.init(rawValue: 1 << UInt8(isoWeekday - 1)) }

  /// Short names, Monday first: the parsed and printed form.
  public static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

  /// Days as `WeekdaySetText` reads them everywhere: `mon-fri`, `sat+sun` (or `sat,sun`),
  /// `mon+wed-fri`, `fri-mon` (a range may wrap past Sunday); `all`, `daily` or `every-day`
  /// for every day. Names are the English weekday's, whole or its first three letters or
  /// more, in any case.
  ///
  /// - Throws: `INVALID_DND_DAYS` with `WeekdaySetText`'s refusal, the message a calendar
  ///   trigger's `weekday=` gives.
  public static func parse(_ text: String, field: String = "days") throws(ChimeError) -> DoNotDisturbDays {
    do {
      var set = DoNotDisturbDays()
      // Calendar numbering (1 = Sunday) to ISO (1 = Monday).
      for day in try WeekdaySetText.parse(text) { set.insert(DoNotDisturbDays(isoWeekday: (day + 5) % 7 + 1)) }
      return set
    } catch {
      throw ChimeError(.invalidDNDDays, error.message, field: field)
    }
  }

  /// `mon-fri`, `sat+sun`, `every day`: as `WeekdaySetText` writes a set, but every day in words.
  public var text: String {
    if self == .everyDay { return "every day" }
    let calendarDays = (1...7).filter { contains(DoNotDisturbDays(isoWeekday: $0)) }.map { $0 % 7 + 1 }
    return WeekdaySetText.text(calendarDays)
  }
}
