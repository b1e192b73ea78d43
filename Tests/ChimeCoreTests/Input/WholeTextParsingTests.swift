import ChimeCore
import FoundationEssentials
import Testing

/// Every parser of user text reads its value whole or refuses it: nothing is read as a prefix
/// of what was typed (`weekday=monxyz` is not Monday).
@Suite struct WholeTextParsingTests {
  @Test(arguments: [("mon", 2), ("MON", 2), ("Monday", 2), ("sunday", 1), ("sat", 7), ("SATURDAY", 7), ("1", 1), ("7", 7), ("+3", 3)])
  func weekdayNamesAndNumbers(_ text: String, _ day: Int) throws {
    #expect(try CalendarSpec.parse("weekday=\(text)").weekday == day)
  }

  @Test(arguments: [("weekday=mon-fri", [2, 3, 4, 5, 6]), ("weekday=2-6", [2, 3, 4, 5, 6]), ("weekday=mon+wed+fri", [2, 4, 6]),
                    ("weekday=fri-mon", [1, 2, 6, 7]), ("weekday=sun-sat", [1, 2, 3, 4, 5, 6, 7]), ("weekday=Monday-Wednesday+sat", [2, 3, 4, 7]),
                    ("weekday=mon+mon-tue", [2, 3])])
  func weekdayListsAndRanges(_ text: String, _ days: [Int]) throws {
    let c = try CalendarSpec.parse(text + ",hour=9")
    #expect(c.weekdays == days && c.weekday == nil)
    // Read back as written, a run of three or more as a range.
    #expect(try CalendarSpec.parse(CalendarSpec.format(c)) == c)
  }

  @Test func weekdaySetsAreWrittenBackAsRangesAndLists() throws {
    #expect(CalendarSpec.format(try CalendarSpec.parse("weekday=mon-fri,hour=9")) == "weekday=mon-fri,hour=9")
    #expect(CalendarSpec.format(try CalendarSpec.parse("weekday=fri+mon+wed")) == "weekday=mon+wed+fri")
    #expect(CalendarSpec.format(try CalendarSpec.parse("weekday=sat-mon")) == "weekday=mon+sat+sun")
    // One day in a list is that day.
    #expect(try CalendarSpec.parse("weekday=tue+tue").weekday == 3)
  }

  @Test(arguments: ["weekday=mon..fri", "weekday=mon;tue", "weekday=mon wed", "weekday=mon,wed,fry", "weekday=mon,tue-", "weekday=mon+",
                    "weekday=mon-", "weekday=mon-tue-wed", "hour=9-17", "hour=9,17", "minute=*/5"])
  func otherListsAndRangesAreRefused(_ text: String) throws {
    let error = try #require(throws: ChimeError.self) { try CalendarSpec.parse(text) }
    #expect(error.has(.invalidCalendarSpec))
    if text.hasPrefix("weekday=") {
      #expect(error.message.contains("mon+wed+fri"), "\(error.message)")
    } else {
      #expect(error.message.contains("taken only by weekday"), "\(error.message)")
    }
  }

  @Test(arguments: ["monxyz", "mo", "mondays", "0", "8", "-1", "2x", "mon.", "lundi"])
  func aWeekdayNotUnderstoodIsRefusedNamingWhatIsAccepted(_ value: String) throws {
    let error = try #require(throws: ChimeError.self) { try CalendarSpec.parse("weekday=\(value)") }
    #expect(error.has(.invalidCalendarSpec))
    #expect(error.message.contains(value), "\(error.message)")
    #expect(error.message.contains("mon, tue, wed, thu, fri, sat, sun"), "\(error.message)")
    #expect(error.message.contains("1–7"), "\(error.message)")
  }

  /// A comma after weekday's days joins more days when what follows is no component: it cannot
  /// be read another way, so it is read as the + form.
  @Test func commasJoinWeekdaysWhereTheyCannotBeMisread() throws {
    #expect(try CalendarSpec.parse("weekday=mon,wed,fri,hour=9") == CalendarSpec.parse("weekday=mon+wed+fri,hour=9"))
    #expect(CalendarSpec.format(try CalendarSpec.parse("weekday=sat,sun")) == "weekday=sat+sun")
  }

  @Test func otherComponentsAreWholeNumbers() throws {
    #expect(try CalendarSpec.parse("ordinal=-1,hour=09").weekdayOrdinal == -1)
    for text in ["hour=9h", "hour=9.5", "minute=3o", "day=1st", "fortnight=x"] {
      #expect(throws: ChimeError.self, "\(text)") { try CalendarSpec.parse(text) }
    }
    let unknown = try #require(throws: ChimeError.self) { try CalendarSpec.parse("fortnight=x") }
    #expect(unknown.message.contains("unknown component"))
  }

  @Test(arguments: ["0x10", "1e3", "nan", "inf", "infinity", "1e3s", "0x10s", "1..5s", "٣s", "10s junk", "+10s", "1.5.2"])
  func durationsAreDecimalAndWhole(_ text: String) {
    #expect(DurationText.parse(text) == nil, "\(text)")
  }

  @Test func durationsStillReadWhatTheyDocument() {
    #expect(DurationText.parse(".5") == 0.5)
    #expect(DurationText.parse("2.") == 2)
    #expect(DurationText.parse("1.5h") == 5400)
    #expect(DurationText.parse("1e20") == nil)
  }

  @Test func anOffsetWithAColonHasItsMinutes() throws {
    let utc = try #require(Zone.named("UTC"))
    #expect(InstantText.parse("2026-11-24T09:30:00+01:", zone: utc) == nil)
    #expect(InstantText.parse("2026-11-24T09:30:00+01:0", zone: utc) == nil)
    #expect(InstantText.parse("2026-11-24T09:30:00+01:00x", zone: utc) == nil)
    let hours = try #require(InstantText.parse("2026-11-24T09:30:00+01", zone: utc))
    let full = try #require(InstantText.parse("2026-11-24T09:30:00+01:00", zone: utc))
    #expect(hours.instant == full.instant)
    #expect(InstantText.parse("2026-11-24T09:30:00+0100", zone: utc)?.instant == full.instant)
  }
}

@Suite struct ThumbnailBoxTextTests {
  @Test(arguments: ["300xx169", "x300x169", "300x169x", "300x", "300×169×2"])
  func aBoxIsTwoNumbersAndNothingElse(_ text: String) {
    #expect(throws: ChimeError.self, "\(text)") { try ThumbnailBox(parsing: text) }
  }

  @Test func theDocumentedFormsStillRead() throws {
    #expect(try ThumbnailBox(parsing: "600x338") == ThumbnailBox(width: 600, height: 338))
    #expect(try ThumbnailBox(parsing: "600×338") == ThumbnailBox(width: 600, height: 338))
  }
}
