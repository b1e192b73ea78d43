public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// The user's calendars: `AddCalendar`, `ListCalendars`, `RemoveCalendar`, `SyncCalendars`.
extension WireCodec {
  /// What `AddCalendarRequest` carries: the calendar's name and its absolute path.
  public struct CalendarAddition: Hashable, Sendable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
      self.name = name
      self.path = path
    }
  }

  /// `AddCalendarRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when the name or path holds a NUL.
  public static func encodeAddCalendarRequest(_ addition: CalendarAddition) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("calendar") { arena in
      let m = arena.message(chime__v1__add_calendar_request__init)
      arena.assign(&m.pointee.name, addition.name)
      arena.assign(&m.pointee.path, addition.path)
      return m
    }
  }

  /// The name and path are checked by the service, which names the reason.
  public static func decodeAddCalendarRequest(_ bytes: [UInt8]) throws(ChimeError) -> CalendarAddition {
    try ProtoMessage.decode(bytes, as: "AddCalendarRequest", with: chime__v1__add_calendar_request__unpack) { m throws(ChimeError) in
      CalendarAddition(name: try ProtoMessage.text(m.pointee.name, "name"), path: try ProtoMessage.text(m.pointee.path, "path"))
    }
  }

  /// `CalendarSource`.
  public static func encodeCalendarSource(_ source: CalendarSource) -> [UInt8] {
    ProtoMessage.pack { arena in buildCalendar(source, in: arena) }
  }

  public static func decodeCalendarSource(_ bytes: [UInt8]) throws(ChimeError) -> CalendarSource {
    try ProtoMessage.decode(bytes, as: "CalendarSource", with: chime__v1__calendar_source__unpack) { m throws(ChimeError) in
      try calendar(m.pointee, "")
    }
  }

  /// `ListCalendarsResponse`.
  public static func encodeListCalendarsResponse(_ sources: [CalendarSource]) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__list_calendars_response__init)
      arena.assign(&m.pointee.calendars, count: &m.pointee.n_calendars, sources) { buildCalendar($0, in: arena) }
      return m
    }
  }

  public static func decodeListCalendarsResponse(_ bytes: [UInt8]) throws(ChimeError) -> [CalendarSource] {
    try ProtoMessage.decode(bytes, as: "ListCalendarsResponse", with: chime__v1__list_calendars_response__unpack) { m throws(ChimeError) in
      var sources: [CalendarSource] = []
      if let list = m.pointee.calendars {
        for i in 0..<m.pointee.n_calendars {
          guard let item = list[i] else { continue }
          sources.append(try calendar(item.pointee, "calendars[\(i)]."))
        }
      }
      return sources
    }
  }

  /// `RemoveCalendarRequest`: the calendar's name.
  public static func encodeRemoveCalendarRequest(_ name: String) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("calendar name") { arena in
      let m = arena.message(chime__v1__remove_calendar_request__init)
      arena.assign(&m.pointee.name, name)
      return m
    }
  }

  public static func decodeRemoveCalendarRequest(_ bytes: [UInt8]) throws(ChimeError) -> String {
    try ProtoMessage.decode(bytes, as: "RemoveCalendarRequest", with: chime__v1__remove_calendar_request__unpack) { m throws(ChimeError) in
      try ProtoMessage.text(m.pointee.name, "name")
    }
  }

  /// `RemoveCalendarResponse`: how many pending alarms were withdrawn.
  public static func encodeRemoveCalendarResponse(_ withdrawn: Int) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__remove_calendar_response__init)
      m.pointee.withdrawn_alarms = UInt32(clamping: withdrawn)
      return m
    }
  }

  public static func decodeRemoveCalendarResponse(_ bytes: [UInt8]) throws(ChimeError) -> Int {
    try ProtoMessage.decode(bytes, as: "RemoveCalendarResponse", with: chime__v1__remove_calendar_response__unpack) { m throws(ChimeError) in
      Int(m.pointee.withdrawn_alarms)
    }
  }

  /// `SyncCalendarsRequest`: one calendar by name, or every one (nil, empty on the wire).
  public static func encodeSyncCalendarsRequest(_ name: String?) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("calendar name") { arena in
      let m = arena.message(chime__v1__sync_calendars_request__init)
      arena.assign(&m.pointee.name, name ?? "")
      return m
    }
  }

  public static func decodeSyncCalendarsRequest(_ bytes: [UInt8]) throws(ChimeError) -> String? {
    try ProtoMessage.decode(bytes, as: "SyncCalendarsRequest", with: chime__v1__sync_calendars_request__unpack) { m throws(ChimeError) in
      let name = try ProtoMessage.text(m.pointee.name, "name")
      return name.isEmpty ? nil : name
    }
  }

  private static func buildCalendar(_ source: CalendarSource, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__CalendarSource> {
    let m = arena.message(chime__v1__calendar_source__init)
    arena.assign(&m.pointee.name, source.name)
    arena.assign(&m.pointee.path, source.path)
    arena.assign(&m.pointee.app_id, source.appID)
    m.pointee.added_unix_ms = source.added.unixMillis
    m.pointee.last_scan_unix_ms = source.lastScan?.unixMillis ?? 0
    m.pointee.item_count = UInt32(clamping: source.itemCount)
    m.pointee.alarm_count = UInt32(clamping: source.alarmCount)
    arena.assign(&m.pointee.errors, count: &m.pointee.n_errors, source.errors) { error in
      let e = arena.message(chime__v1__calendar_file_error__init)
      arena.assign(&e.pointee.file, error.file)
      arena.assign(&e.pointee.message, error.message)
      return e
    }
    return m
  }

  private static func calendar(_ m: Chime__V1__CalendarSource, _ prefix: String) throws(ChimeError) -> CalendarSource {
    var errors: [CalendarSource.FileError] = []
    if let list = m.errors {
      for i in 0..<m.n_errors {
        guard let e = list[i]?.pointee else { continue }
        errors.append(.init(file: try ProtoMessage.text(e.file, prefix + "errors[\(i)].file"),
                            message: try ProtoMessage.text(e.message, prefix + "errors[\(i)].message")))
      }
    }
    var source = CalendarSource(
      name: try ProtoMessage.text(m.name, prefix + "name"), path: try ProtoMessage.text(m.path, prefix + "path"),
      added: Instant(unixMillis: m.added_unix_ms),
      lastScan: m.last_scan_unix_ms == 0 ? nil : Instant(unixMillis: m.last_scan_unix_ms),
      itemCount: Int(m.item_count), alarmCount: Int(m.alarm_count), errors: errors)
    source.appID = try ProtoMessage.text(m.app_id, prefix + "app_id")
    return source
  }
}
