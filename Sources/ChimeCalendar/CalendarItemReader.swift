public import ChimeCore

/// Reads one iCalendar item (a vdir file's bytes) into ChimeCore's `CalendarItem`, through
/// libical. Untrusted input: bounded in size, NUL bytes and invalid UTF-8 refused, every count
/// limited (`CalendarItem.Limits`); what libical could not read in a property is reported as a
/// warning (its X-LIC-ERROR) and the rest of the item is kept.
public enum CalendarItemReader {
  /// The item in `bytes`, and warnings about parts left out.
  ///
  /// - Throws: `CalendarReadError` for an item over `CalendarItem.Limits.itemBytes`, one that
  ///   is not UTF-8 text, or one libical finds no VCALENDAR in.
  public static func read(_ bytes: [UInt8]) throws(CalendarReadError) -> (item: CalendarItem, warnings: [String]) {
    guard bytes.count <= CalendarItem.Limits.itemBytes else {
      throw CalendarReadError("the item is larger than \(CalendarItem.Limits.itemBytes) bytes")
    }
    guard !bytes.contains(0) else { throw CalendarReadError("the item holds a NUL byte") }
    var body = bytes[...]
    // A UTF-8 byte order mark (some Windows exports) is not part of the text.
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    guard let text = String(validating: body, as: UTF8.self) else { throw CalendarReadError("the item is not UTF-8 text") }
    var warnings: [String] = []
    let item = try LibicalReader.read(text, warnings: &warnings)
    return (item, warnings)
  }
}
