/// A POSIX TZ string as TZif footers carry it (RFC 8536 section 3.3, with its extensions: hours
/// of a rule's time from -167 to 167), e.g. `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0/2` or `<+05>-5` (no daylight saving time).
public struct PosixZoneRule: Equatable, Sendable {
  /// A day of the year a change happens on.
  public enum Day: Equatable, Sendable {
    /// `Jn`: day 1...365, 29 February never counted.
    case julian(Int)
    /// `n`: day 0...365, 29 February counted.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  public struct Change: Equatable, Sendable {
    public var day: Day
    /// Local seconds after the day's midnight (in the time in effect before the change).
    public var time: Int
  }

  /// Seconds east of UTC of standard time.
  public var standardOffset: Int
  /// Seconds east of UTC of daylight saving time and when it starts and ends; nil for a zone
  /// with one offset.
  public var daylight: (offset: Int, start: Change, end: Change)?

  public static func == (a: PosixZoneRule, b: PosixZoneRule) -> Bool {
    a.standardOffset == b.standardOffset && a.daylight?.offset == b.daylight?.offset
      && a.daylight?.start == b.daylight?.start && a.daylight?.end == b.daylight?.end
  }

  public init(_ text: String) throws(TZifError) {
    var p = Parser(bytes: Array(text.utf8))
    try p.name()
    // POSIX offsets count west of UTC: `CET-1` is one hour east.
    standardOffset = -(try p.time(maxHours: 24))
    if p.atEnd {
      daylight = nil
      return
    }
    try p.name()
    var dstOffset = standardOffset + 3600
    if !p.atEnd, p.peek != UInt8(ascii: ",") { dstOffset = -(try p.time(maxHours: 24)) }
    let start: Change, end: Change
    if p.atEnd {
      // POSIX leaves the default rule to the implementation; tzcode uses the US rule.
      start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
      end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    } else {
      try p.expect(",")
      start = try p.change()
      try p.expect(",")
      end = try p.change()
    }
    guard p.atEnd else { throw TZifError("unexpected text at offset \(p.at)") }
    daylight = (dstOffset, start, end)
  }

  /// The day number (days since 1970-01-01) a change's day falls on in `year`.
  static func dayNumber(_ day: Day, year: Int) -> Int {
    let jan1 = CivilDate.dayNumber(year: year, month: 1, day: 1)
    switch day {
    case .julian(let n):
      return jan1 + n - 1 + (CivilDate.isLeap(year) && n >= 60 ? 1 : 0)
    case .zeroBased(let n):
      return jan1 + n
    case .monthWeekDay(let month, let week, let weekday):
      let first = CivilDate.dayNumber(year: year, month: month, day: 1)
      let firstWeekday = CivilDate.weekday(first) - 1           // 0 = Sunday
      var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
      let last = first + CivilDate.daysInMonth(year: year, month: month) - 1
      while day > last { day -= 7 }
      return day
    }
  }

  /// The changes of `year` as (UTC seconds, offset from then on), in the rule's order: the
  /// start of daylight saving time, then its end. Empty for a zone without DST.
  func changes(year: Int) -> [(at: Int64, offset: Int)] {
    guard let (dst, start, end) = daylight else { return [] }
    let starts = Int64(Self.dayNumber(start.day, year: year)) * CivilDate.secondsPerDay + Int64(start.time) - Int64(standardOffset)
    let ends = Int64(Self.dayNumber(end.day, year: year)) * CivilDate.secondsPerDay + Int64(end.time) - Int64(dst)
    return [(starts, dst), (ends, standardOffset)]
  }

  private struct Parser {
    let bytes: [UInt8]
    var at = 0

    var atEnd: Bool { at == bytes.count }
    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    mutating func expect(_ c: Character) throws(TZifError) {
      guard peek == c.asciiValue else { throw TZifError("expected \"\(c)\" at offset \(at)") }
      at += 1
    }

    /// `<...>` (letters, digits, `+`, `-`) or three or more letters.
    mutating func name() throws(TZifError) {
      let start = at
      if peek == UInt8(ascii: "<") {
        at += 1
        while let c = peek, c != UInt8(ascii: ">") {
          guard isAlpha(c) || isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else {
            throw TZifError("bad character in a quoted zone name at offset \(at)")
          }
          at += 1
        }
        try expect(">")
        guard at - start >= 5 else { throw TZifError("zone name shorter than three characters at offset \(start)") }
      } else {
        while let c = peek, isAlpha(c) { at += 1 }
        guard at - start >= 3 else { throw TZifError("zone name shorter than three letters at offset \(start)") }
      }
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    mutating func time(maxHours: Int) throws(TZifError) -> Int {
      var sign = 1
      if peek == UInt8(ascii: "+") { at += 1 } else if peek == UInt8(ascii: "-") { sign = -1; at += 1 }
      let hours = try number(maxDigits: 3)
      guard hours <= maxHours else { throw TZifError("hours \(hours) out of range at offset \(at)") }
      var seconds = hours * 3600
      if peek == UInt8(ascii: ":") {
        at += 1
        let minutes = try number(maxDigits: 2)
        guard minutes < 60 else { throw TZifError("minutes \(minutes) out of range at offset \(at)") }
        seconds += minutes * 60
        if peek == UInt8(ascii: ":") {
          at += 1
          let s = try number(maxDigits: 2)
          guard s < 60 else { throw TZifError("seconds \(s) out of range at offset \(at)") }
          seconds += s
        }
      }
      return sign * seconds
    }

    mutating func change() throws(TZifError) -> Change {
      let day: Day
      if peek == UInt8(ascii: "J") {
        at += 1
        let n = try number(maxDigits: 3)
        guard (1...365).contains(n) else { throw TZifError("Julian day \(n) out of range") }
        day = .julian(n)
      } else if peek == UInt8(ascii: "M") {
        at += 1
        let month = try number(maxDigits: 2)
        try expect(".")
        let week = try number(maxDigits: 1)
        try expect(".")
        let weekday = try number(maxDigits: 1)
        guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
          throw TZifError("M\(month).\(week).\(weekday) out of range")
        }
        day = .monthWeekDay(month: month, week: week, weekday: weekday)
      } else {
        let n = try number(maxDigits: 3)
        guard (0...365).contains(n) else { throw TZifError("day \(n) out of range") }
        day = .zeroBased(n)
      }
      var time = 7200
      if peek == UInt8(ascii: "/") {
        at += 1
        time = try self.time(maxHours: 167)
      }
      return Change(day: day, time: time)
    }

    mutating func number(maxDigits: Int) throws(TZifError) -> Int {
      let start = at
      var value = 0
      while let c = peek, isDigit(c), at - start < maxDigits {
        value = value * 10 + Int(c - UInt8(ascii: "0"))
        at += 1
      }
      guard at > start else { throw TZifError("expected a number at offset \(start)") }
      return value
    }

    private func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
  }
}
