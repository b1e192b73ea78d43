import ChimeCore
import ChimeWire

/// The user's calendars. User-side calls: a calendar is the user's, posted under an app id of
/// its own, and its paths say where the user keeps it, so a sandboxed app neither lists nor
/// changes them; the caller's app id is not used.
extension ServiceCalls {
  func addCalendar(_ call: any ServerCall, _ addition: WireCodec.CalendarAddition,
                   reply: @escaping (Result<CalendarSource, ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "AddCalendar")
    service.calendars.add(name: addition.name, path: addition.path, reply: reply)
  }

  func listCalendars(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[CalendarSource], ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "ListCalendars")
    service.calendars.list(reply: reply)
  }

  func removeCalendar(_ call: any ServerCall, _ name: String, reply: @escaping (Result<Int, ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "RemoveCalendar")
    service.calendars.remove(name: name, reply: reply)
  }

  func syncCalendars(_ call: any ServerCall, _ name: String?, reply: @escaping (Result<[CalendarSource], ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "SyncCalendars")
    service.calendars.sync(name: name, reply: reply)
  }
}
