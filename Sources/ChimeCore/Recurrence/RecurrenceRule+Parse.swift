extension RecurrenceRule {
  /// The rule parts Chime reads, in the order `text` writes them.
  static let partNames = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY",
                          "BYHOUR", "BYMINUTE", "BYSECOND", "BYSETPOS", "WKST"]

  /// Reads RRULE text: `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20271231T230000Z`. Part
  /// names and values are read without regard to case; a leading `RRULE:` is allowed; parts
  /// may come in any order, each at most once.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_RECURRENCE_RULE` naming the part that is wrong (an
  ///   unknown part, a value out of range such as `BYSETPOS=0`, `COUNT` with `UNTIL`, a part
  ///   RFC 5545 forbids with the frequency, `FREQ=HOURLY` and finer), with `field`.
  public static func parse(_ text: String, field: String = "rrule") throws(ChimeError) -> RecurrenceRule {
    func bad(_ message: String) -> ChimeError {
      ChimeError(.invalidRecurrenceRule, message, field: field)
    }
    var body = Substring(text.trimmingWhitespace())
    if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
    guard !body.isEmpty else { throw bad("the rule is empty: give at least FREQ, e.g. FREQ=WEEKLY;BYDAY=MO") }
    var values: [String: String] = [:]
    for piece in body.split(separator: ";", omittingEmptySubsequences: false) {
      let part = piece.trimmingWhitespace()
      if part.isEmpty {
        // A trailing `;` is harmless; an empty part in the middle is a typo worth naming.
        if piece.endIndex == body.endIndex { continue }
        throw bad("an empty part (\";;\"): parts are NAME=VALUE separated by one \";\"")
      }
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { throw bad("\(part) is not NAME=VALUE") }
      let name = pair[0].trimmingWhitespace().uppercased()
      let value = pair[1].trimmingWhitespace()
      guard partNames.contains(name) else {
        throw bad("unknown part \(part): Chime reads \(partNames.joined(separator: ", "))")
      }
      guard !value.isEmpty else { throw bad("\(name)= has no value") }
      guard values[name] == nil else { throw bad("\(name) is given twice") }
      values[name] = value
    }

    guard let freqText = values["FREQ"] else { throw bad("FREQ is missing: give FREQ=DAILY, WEEKLY, MONTHLY or YEARLY") }
    guard let frequency = Frequency(rawValue: freqText.uppercased()) else {
      if ["HOURLY", "MINUTELY", "SECONDLY"].contains(freqText.uppercased()) {
        throw bad("FREQ=\(freqText.uppercased()) is not supported: a rule repeats by the wall clock from DAILY up; "
          + "to repeat every so many hours, minutes or seconds use an interval trigger (--in 2h --repeats)")
      }
      throw bad("FREQ=\(freqText) is not a frequency: give DAILY, WEEKLY, MONTHLY or YEARLY")
    }
    var rule = RecurrenceRule(frequency: frequency)

    func integer(_ name: String, _ raw: Substring) throws(ChimeError) -> Int {
      let s = raw.trimmingWhitespace()
      let unsigned = s.hasPrefix("+") ? String(s.dropFirst()) : s
      guard !unsigned.hasPrefix("+"), !unsigned.hasPrefix("-") || unsigned.count > 1, let n = Int(unsigned) else {
        throw bad("\(name)=\(raw): \"\(s)\" is not a whole number")
      }
      return n
    }
    /// A list of numbers within `range`, zero refused when `signed` (negative ones count from the end).
    func numbers(_ name: String, _ range: ClosedRange<Int>, signed: Bool, note: String = "") throws(ChimeError) -> [Int] {
      guard let raw = values[name] else { return [] }
      var result: [Int] = []
      for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
        guard !item.trimmingWhitespace().isEmpty else { throw bad("\(name)=\(raw) has an empty item") }
        let n = try integer(name, item)
        let ok = signed ? (n != 0 && range.contains(abs(n))) : range.contains(n)
        guard ok else {
          let allowed = signed ? "±\(range.lowerBound)...\(range.upperBound) (0 is none)" : "\(range.lowerBound)...\(range.upperBound)"
          throw bad("\(name)=\(n): \(name) takes \(allowed)\(note)")
        }
        if !result.contains(n) { result.append(n) }
      }
      return result
    }

    if let raw = values["INTERVAL"] {
      let n = try integer("INTERVAL", Substring(raw))
      guard (1...9999).contains(n) else { throw bad("INTERVAL=\(raw): INTERVAL takes 1...9999") }
      rule.interval = n
    }
    rule.byMonth = try numbers("BYMONTH", 1...12, signed: false)
    rule.byWeekNo = try numbers("BYWEEKNO", 1...53, signed: true)
    rule.byYearDay = try numbers("BYYEARDAY", 1...366, signed: true)
    rule.byMonthDay = try numbers("BYMONTHDAY", 1...31, signed: true)
    rule.byHour = try numbers("BYHOUR", 0...23, signed: false)
    rule.byMinute = try numbers("BYMINUTE", 0...59, signed: false)
    rule.bySecond = try numbers("BYSECOND", 0...59, signed: false, note: " (Chime has no leap seconds)")
    rule.bySetPos = try numbers("BYSETPOS", 1...366, signed: true)
    if let raw = values["BYDAY"] {
      for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
        let s = item.trimmingWhitespace()
        guard s.count >= 2, let weekday = Weekday(code: String(s.suffix(2))) else {
          throw bad("BYDAY=\(raw): \"\(s)\" is not a weekday: give MO, TU, WE, TH, FR, SA or SU, with an optional ordinal (2TU, -1FR)")
        }
        var entry = WeekdayNum(weekday)
        let prefix = s.dropLast(2)
        if !prefix.isEmpty {
          let n = try integer("BYDAY", prefix)
          guard n != 0, abs(n) <= 53 else { throw bad("BYDAY=\(s): the ordinal takes ±1...53 (0 is none)") }
          entry.ordinal = n
        }
        if !rule.byDay.contains(entry) { rule.byDay.append(entry) }
      }
    }
    if let raw = values["WKST"] {
      guard let weekday = Weekday(code: raw) else { throw bad("WKST=\(raw): give MO, TU, WE, TH, FR, SA or SU") }
      rule.weekStart = weekday
    }

    if values["COUNT"] != nil && values["UNTIL"] != nil {
      throw bad("COUNT with UNTIL: a rule ends after a number of occurrences or at a time, not both")
    }
    if let raw = values["COUNT"] {
      let n = try integer("COUNT", Substring(raw))
      guard n >= 1, n <= Int(Int32.max) else { throw bad("COUNT=\(raw): COUNT takes 1 or more") }
      rule.end = .count(n)
    }
    if let raw = values["UNTIL"] {
      rule.end = try parseUntil(raw, bad: bad)
    }

    try rule.checkCombinations(bad: bad)
    return rule
  }

  private static func parseUntil(_ raw: String, bad: (String) -> ChimeError) throws(ChimeError) -> End {
    let s = raw.uppercased()
    let utc = s.hasSuffix("Z")
    let local = utc ? String(s.dropLast()) : s
    guard local.contains("T") else {
      throw bad("UNTIL=\(raw) is a date: give a date and time, e.g. UNTIL=\(local)T235959Z (UTC) or UNTIL=\(local)T235959 (the rule's zone)")
    }
    guard local.utf8.count == 15, let wall = LocalDateTime(parsing: local) else {
      throw bad("UNTIL=\(raw) is not a date-time: give YYYYMMDDTHHMMSSZ (UTC) or YYYYMMDDTHHMMSS (the rule's zone)")
    }
    if utc {
      return .untilInstant(Instant(unixMillis: wall.wallSeconds * 1000))
    }
    return .untilLocal(wall)
  }

  /// RFC 5545's restrictions on which parts go with which frequency.
  private func checkCombinations(bad: (String) -> ChimeError) throws(ChimeError) {
    let freq = "FREQ=\(frequency.rawValue)"
    if !byWeekNo.isEmpty && frequency != .yearly {
      throw bad("BYWEEKNO with \(freq): BYWEEKNO goes only with FREQ=YEARLY")
    }
    if !byYearDay.isEmpty && frequency != .yearly {
      throw bad("BYYEARDAY with \(freq): BYYEARDAY goes only with FREQ=YEARLY")
    }
    if !byMonthDay.isEmpty && frequency == .weekly {
      throw bad("BYMONTHDAY with FREQ=WEEKLY: RFC 5545 does not allow it (use BYDAY, or FREQ=MONTHLY)")
    }
    if let numbered = byDay.first(where: { $0.ordinal != nil }) {
      if frequency != .monthly && frequency != .yearly {
        throw bad("BYDAY=\(numbered) with \(freq): an ordinal weekday goes only with FREQ=MONTHLY or FREQ=YEARLY (give \(numbered.weekday.code))")
      }
      if !byWeekNo.isEmpty {
        throw bad("BYDAY=\(numbered) with BYWEEKNO: an ordinal weekday does not go with BYWEEKNO")
      }
    }
    if !bySetPos.isEmpty && byDay.isEmpty && byMonthDay.isEmpty && byMonth.isEmpty && byYearDay.isEmpty
      && byWeekNo.isEmpty && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty {
      throw bad("BYSETPOS alone: BYSETPOS picks among the occurrences another BY part makes (e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1)")
    }
  }

  /// The rule as RRULE text, parts in a fixed order (`FREQ=MONTHLY;BYDAY=-1FR`).
  public var text: String {
    var parts = ["FREQ=\(frequency.rawValue)"]
    if interval != 1 { parts.append("INTERVAL=\(interval)") }
    switch end {
    case .count(let n): parts.append("COUNT=\(n)")
    case .untilInstant(let instant):
      let wall = LocalDateTime(wallSeconds: CivilDate.floorDiv(instant.unixMillis, 1000))
      parts.append("UNTIL=\(wall.compactText)Z")
    case .untilLocal(let wall): parts.append("UNTIL=\(wall.compactText)")
    case nil: break
    }
    func list(_ name: String, _ values: [Int]) {
      if !values.isEmpty { parts.append("\(name)=" + values.map(String.init).joined(separator: ",")) }
    }
    list("BYMONTH", byMonth)
    list("BYWEEKNO", byWeekNo)
    list("BYYEARDAY", byYearDay)
    list("BYMONTHDAY", byMonthDay)
    if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.description).joined(separator: ",")) }
    list("BYHOUR", byHour)
    list("BYMINUTE", byMinute)
    list("BYSECOND", bySecond)
    list("BYSETPOS", bySetPos)
    if weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
    return parts.joined(separator: ";")
  }
}

extension LocalDateTime {
  /// `20271231T235959`: RFC 5545's DATE-TIME form.
  var compactText: String {
    func pad(_ v: Int, _ w: Int) -> String {
      let s = String(v)
      return String(repeating: "0", count: max(0, w - s.count)) + s
    }
    return pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
  }
}
