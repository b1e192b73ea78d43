import ChimeCalendar
import ChimeCore
import ChimeRecords
import ChimeSystem

/// `chime-calendar import FILE NOW_MS ZONE`: what `chime import` runs (issue 41 item 7). Reads
/// one .ics file through libical and prints, one JSON object a line, what `RequestImport`
/// makes of it:
///   {"kind":"request","app":…|null,"identifier":…,"record":<base64 PendingRequest record>,
///    "first_fire":"…Z","source":…,"note":…}
///   {"kind":"skipped","source":…,"reason":…}
/// `app` is X-CHIME-APP for a request Chime exported; ZONE is the zone of floating and all-day
/// times. stderr: what libical read leniently. Exit 0; 1 when FILE is not an iCalendar file
/// Chime can read (the reason on stderr); 2 for a bad command line.
enum Import {
  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.count == 4, let nowMillis = Int64(arguments[2]), let zone = Zone.named(arguments[3]) else {
      StandardStreams.writeError("usage: chime-calendar import FILE NOW_MS ZONE\n")
      return 2
    }
    let path = arguments[1]
    guard let status = FileSystem.status(path) else {
      StandardStreams.writeError("\(path) does not exist\n")
      return 1
    }
    guard status.isRegular else {
      StandardStreams.writeError("\(path) is not a regular file\n")
      return 1
    }
    guard status.size <= Int64(CalendarItem.Limits.itemBytes) else {
      StandardStreams.writeError("\(path) is larger than \(CalendarItem.Limits.itemBytes) bytes (\(status.size))\n")
      return 1
    }
    let bytes: [UInt8]
    do { bytes = try FileSystem.contents(path) } catch {
      StandardStreams.writeError("\(path) cannot be read (\(error))\n")
      return 1
    }
    let read: (item: CalendarItem, extras: [CalendarFileReader.ComponentExtras], warnings: [String])
    do { read = try CalendarFileReader.read(bytes) } catch {
      StandardStreams.writeError("\(path): \(error.message)\n")
      return 1
    }
    guard !read.item.components.isEmpty else {
      StandardStreams.writeError("\(path): no VEVENT or VTODO in it\n")
      return 1
    }
    var messages = read.warnings.map { "\(path): \($0)\n" }.joined()
    let codec = RecordCodec()
    let extras = read.extras.enumerated().map { index, extras -> RequestImport.Extras in
      var result = RequestImport.Extras(description: extras.description)
      guard let record = extras.chime[RequestExport.requestProperty] else { return result }
      guard let data = Base64Text.decode(record), let pending = try? codec.decode(PendingRequest.self, from: data) else {
        messages += "\(path): component \(index + 1): its \(RequestExport.requestProperty) is not a request record; read as a calendar event\n"
        return result
      }
      result.own = RequestImport.Own(app: extras.chime[RequestExport.appProperty] ?? "", pending: pending,
                                     schedule: extras.chime[ScheduleFingerprint.property], properties: extras.chime)
      return result
    }
    let now = Instant(unixMillis: nowMillis)
    let zones = CalendarZones(userZone: zone, windowsZones: CalendarCollection.windowsZones())
    let outcome = RequestImport.plan(read.item, extras: extras, now: now, zones: zones)
    var out: [UInt8] = []
    for imported in outcome.imported {
      let record = PendingRequest(request: imported.request, nextFire: imported.firstFire, added: now)
      JSONWriter.write(.object([
        .init("kind", .string("request")),
        .init("app", imported.app.map { $0.isEmpty ? .null : .string($0) } ?? .null),
        .init("identifier", .string(imported.request.identifier)),
        .init("record", .string(Base64Text.encode(codec.encode(record)))),
        .init("first_fire", .string(String(imported.firstFire.description.prefix(19)) + "Z")),
        .init("source", .string(imported.source)),
        .init("note", .string(imported.note)),
      ]), to: &out)
      out.append(0x0A)
    }
    for skipped in outcome.skipped {
      JSONWriter.write(.object([
        .init("kind", .string("skipped")), .init("source", .string(skipped.source)), .init("reason", .string(skipped.reason)),
      ]), to: &out)
      out.append(0x0A)
    }
    if !messages.isEmpty { StandardStreams.writeError(messages) }
    print(String(decoding: out, as: UTF8.self), terminator: "")
    return 0
  }
}
