import ChimeCore

extension DBusRecords {
  /// A registered calendar, as ListCalendars lists it.
  static func calendar(_ s: CalendarSource) -> Pairs {
    [("name", .string(s.name)), ("path", .string(s.path)), ("app-id", .string(s.appID)),
     ("added", .int64(s.added.unixMillis)), ("last-scan", .int64(s.lastScan?.unixMillis ?? 0)),
     ("items", .uint32(UInt32(clamping: s.itemCount))), ("alarms", .uint32(UInt32(clamping: s.alarmCount))),
     ("errors", .vardicts(s.errors.map { [("file", .string($0.file)), ("message", .string($0.message))] }))]
  }
}
