import ChimeClient
import ChimeCore

extension DoctorChecks {
  /// One line per registered calendar (issue 41): its counts, or what chimed could not read
  /// (the calendar as a whole, or the files it skipped), with where to look.
  static func calendarChecks(_ client: ChimeClient) async -> [DoctorCheck] {
    let calendars: [CalendarSource]
    do {
      calendars = try await client.listCalendars()
    } catch where error.code == .unimplemented {
      return []
    } catch {
      return [DoctorCheck(name: "calendars", status: .warn, detail: "not listed: \(error.message)")]
    }
    return calendars.map(check)
  }

  static func check(_ calendar: CalendarSource) -> DoctorCheck {
    let name = "calendar \(calendar.name)"
    let counts = "\(calendar.itemCount) item\(calendar.itemCount == 1 ? "" : "s"), \(calendar.alarmCount) alarm\(calendar.alarmCount == 1 ? "" : "s") scheduled"
      + (calendar.lastScan.map { ", last read \(TimeText.local($0))" } ?? ", never read")
    if let whole = calendar.errors.first(where: { $0.file.isEmpty }) {
      return DoctorCheck(name: name, status: .warn, detail: "\(calendar.path) not read: \(whole.message); \(counts)",
                         hint: "chimed keeps trying; check that the folder is there (vdirsyncer sync), or `chime calendar remove \(calendar.name)`")
    }
    guard let first = calendar.errors.first else { return DoctorCheck(name: name, status: .ok, detail: "\(calendar.path): \(counts)") }
    let more = calendar.errors.count > 1 ? " and \(calendar.errors.count - 1) more" : ""
    return DoctorCheck(name: name, status: .warn, detail: "\(calendar.path): \(counts); skipped \(first.file): \(first.message)\(more)",
                       hint: "`chime calendar list` names every file skipped; the others' alarms are scheduled")
  }
}
