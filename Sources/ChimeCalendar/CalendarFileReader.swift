public import ChimeCore

/// Reads an iCalendar file for `chime import`: the item as the alarm planner reads it, and
/// per component what the planner does not keep (DESCRIPTION, X-CHIME-* properties).
public enum CalendarFileReader {
  public struct ComponentExtras: Hashable, Sendable {
    public var description: String?
    /// `X-CHIME-…` values by upper-cased name, unescaped.
    public var chime: [String: String] = [:]

    public init(description: String? = nil, chime: [String: String] = [:]) {
      self.description = description
      self.chime = chime
    }
  }

  /// - Throws: `CalendarReadError` as `CalendarItemReader.read` does (too large, not UTF-8 text,
  ///   no iCalendar component).
  public static func read(_ bytes: [UInt8]) throws(CalendarReadError) -> (item: CalendarItem, extras: [ComponentExtras], warnings: [String]) {
    let (item, warnings) = try CalendarItemReader.read(bytes)
    var body = bytes[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    // Valid UTF-8: CalendarItemReader checked it.
    var extras = LibicalExtras.read(String(decoding: body, as: UTF8.self))
    // One entry per component, whatever libical's second walk saw.
    if extras.count > item.components.count { extras = Array(extras.prefix(item.components.count)) }
    while extras.count < item.components.count { extras.append(ComponentExtras()) }
    return (item, extras, warnings)
  }

  /// `events` as one VCALENDAR (with the VTIMEZONEs their TZIDs name), written by libical;
  /// DTSTAMP is `stamp`. The notes say what libical did not take.
  public static func write(_ events: [ExportedEvent], stamp: Instant,
                           productID: String = "-//Chime//chime export//EN") -> (text: String, notes: [String]) {
    LibicalWriter.write(events, stamp: stamp, productID: productID)
  }
}
