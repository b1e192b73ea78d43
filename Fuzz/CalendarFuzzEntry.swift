// The `ical` target of chime-fuzz-ical: an item's bytes through libical (ChimeCalendar's
// CalendarItemReader, compiled into this binary) and, when read, ChimeCore's alarm planner for
// a ten-year window in a zone with DST. Checked: reading answers an item or a
// CalendarReadError; a plan's alarms are inside the window and sorted. libical itself is built
// without the sanitizers (Debian's libical.so.3): its own memory errors show as crashes only.

import ChimeCore

private let window = (after: Instant(unixMillis: 1_577_836_800_000), until: Instant(unixMillis: 1_893_456_000_000))  // 2020..2030
private let zones = CalendarZones(userZone: Zone.named("Europe/Berlin") ?? .utc, windowsZones: ["W. Europe Standard Time": "Europe/Berlin"])

@_cdecl("LLVMFuzzerTestOneInput")
public func chimeCalendarFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  guard let (item, _) = try? CalendarItemReader.read(bytes) else { return 0 }
  let plan = CalendarAlarmPlanner.plan(item, after: window.after, until: window.until, zones: zones)
  for (k, alarm) in plan.alarms.enumerated() {
    precondition(alarm.at >= window.after && alarm.at < window.until, "an alarm outside the window")
    precondition(k == 0 || plan.alarms[k - 1].at <= alarm.at, "alarms out of order")
  }
  return 0
}
