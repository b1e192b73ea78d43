import ChimeCalendar
import ChimeCore
import ChimeRecords
import ChimeSystem
import Glibc

/// `chime-calendar export NOW_MS ZONE`: what `chime export --ics` runs (issue 41 item 7).
/// stdin: one pending request a line, `<app>\t<base64 of the store's PendingRequest record>`
/// (what `chime` got from chimed). stdout: one VCALENDAR, a VEVENT per request
/// (`RequestExport`), written by libical. stderr: one line per request left out or noted.
/// ZONE is the zone floating triggers follow (chimed's: the machine's). Exit 0; 1 for a line
/// that is not a request (its number on stderr); 2 for a bad command line.
enum Export {
  /// Bytes read from stdin (a request record is at most a few KiB; 100,000 of them).
  static let inputLimit = 256 << 20
  static let requestLimit = 100_000

  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let nowMillis = Int64(arguments[1]), let zone = Zone.named(arguments[2]) else {
      StandardStreams.writeError("usage: chime-calendar export NOW_MS ZONE < REQUESTS\n")
      return 2
    }
    guard let input = readStandardInput(limit: inputLimit) else {
      StandardStreams.writeError("the requests on stdin are over \(inputLimit) bytes\n")
      return 1
    }
    var events: [ExportedEvent] = []
    var messages = ""
    let codec = RecordCodec()
    for (number, line) in input.split(separator: UInt8(ascii: "\n")).enumerated() {
      guard number < requestLimit else {
        messages += "only the first \(requestLimit) requests are exported\n"
        break
      }
      let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
      guard fields.count == 2, let app = String(validating: fields[0], as: UTF8.self),
            let bytes = Base64Text.decode(String(decoding: fields[1], as: UTF8.self)),
            let pending = try? codec.decode(PendingRequest.self, from: bytes)
      else {
        StandardStreams.writeError("line \(number + 1) of stdin is not <app> TAB <base64 request record>\n")
        return 1
      }
      let name = "\(pending.request.identifier) (\(app))"
      switch RequestExport.export(pending, app: app, zone: zone) {
      case .failure(let reason):
        messages += "\(name): not exported: \(reason.message)\n"
      case .success(var exported):
        for note in exported.notes { messages += "\(name): \(note)\n" }
        exported.event.properties.append(.init(RequestExport.requestProperty, Base64Text.encode(codec.encode(exported.request))))
        events.append(exported.event)
      }
    }
    let (text, notes) = CalendarFileReader.write(events, stamp: Instant(unixMillis: nowMillis))
    for note in notes { messages += note + "\n" }
    // What `chime import` reads back is one item, with an item's limits.
    if events.count > CalendarItem.Limits.components || text.utf8.count > CalendarItem.Limits.itemBytes {
      messages += "the file holds \(events.count) events in \(text.utf8.count) bytes: chime import reads at most "
        + "\(CalendarItem.Limits.components) events and \(CalendarItem.Limits.itemBytes) bytes a file\n"
    }
    if events.isEmpty { messages += "no pending request to export\n" }
    if !messages.isEmpty { StandardStreams.writeError(messages) }
    print(text, terminator: "")
    return 0
  }

  /// All of stdin, or nil past `limit` bytes.
  static func readStandardInput(limit: Int) -> [UInt8]? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return bytes }
      bytes += buffer[0..<n]
      if bytes.count > limit { return nil }
    }
  }
}
