/// Writes what the user did with a calendar alarm back into its item's iCalendar text, as RFC
/// 9074 describes, so every device that syncs the calendar sees it: dismissing sets the
/// alarm's ACKNOWLEDGED to the UTC instant; snoozing acknowledges it too and adds a snooze
/// alarm (`RELATED-TO;RELTYPE=SNOOZE` naming the alarm's UID, an absolute TRIGGER) to the same
/// component. Everything else in the text stays byte for byte: other lines, their folding and
/// order, the line ending the file uses. The text is edited as content lines (RFC 5545 section
/// 3.1); the parsing that decides what an item means stays libical's. Pure.
public enum AlarmWriteBack {
  /// Which VALARM: the `alarmIndex`-th VALARM (from 0, in text order) of the
  /// `componentIndex`-th VEVENT or VTODO of the item (from 0, in text order), whose UID must
  /// be `uid` (a file changed since it was read names another component there).
  public struct Target: Hashable, Sendable {
    public var uid: String
    public var componentIndex: Int
    public var alarmIndex: Int

    public init(uid: String, componentIndex: Int, alarmIndex: Int) {
      self.uid = uid
      self.componentIndex = componentIndex
      self.alarmIndex = alarmIndex
    }
  }

  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// The item has fewer VEVENT/VTODO components than the index.
    case componentNotFound(Int)
    /// The component there has another UID: the file changed since it was read.
    case uidMismatch(expected: String, found: String?)
    /// The component has fewer VALARMs than the index.
    case alarmNotFound(Int)

    public var description: String {
      switch self {
      case .componentNotFound(let i): "the item has no event or to-do number \(i + 1)"
      case .uidMismatch(let expected, let found): "the component there has UID \(found ?? "(none)"), not \(expected): the file changed"
      case .alarmNotFound(let i): "the component has no alarm number \(i + 1)"
      }
    }
  }

  /// Sets ACKNOWLEDGED on the alarm (replacing an earlier ACKNOWLEDGED of that alarm).
  public static func acknowledge(_ text: [UInt8], _ target: Target, at instant: Instant) throws(Failure) -> [UInt8] {
    let item = ContentLines(text)
    let alarm = try locate(item, target)
    var edits = [Edit]()
    edits.append(setting("ACKNOWLEDGED", to: "ACKNOWLEDGED:" + utc(instant), in: alarm, item))
    return item.applying(edits)
  }

  /// Acknowledges the alarm and adds, after it in the same component, a snooze alarm that fires
  /// at `until`: its own UID (`snoozeUID`), RELATED-TO;RELTYPE=SNOOZE naming the snoozed
  /// alarm's UID (which the alarm is given when it has none: `alarmUID`), and the alarm's
  /// ACTION and DESCRIPTION. RFC 9074 section 7.
  public static func snooze(_ text: [UInt8], _ target: Target, at instant: Instant, until: Instant,
                            snoozeUID: String, alarmUID: String) throws(Failure) -> [UInt8] {
    let item = ContentLines(text)
    let alarm = try locate(item, target)
    var edits = [Edit]()
    edits.append(setting("ACKNOWLEDGED", to: "ACKNOWLEDGED:" + utc(instant), in: alarm, item))
    let existingUID = alarm.lines.first { item.name(of: $0) == "UID" }.map { item.value(of: $0) }
    let related = existingUID ?? alarmUID
    if existingUID == nil {
      edits.append(Edit(at: alarm.end.start, insert: ["UID:" + alarmUID]))
    }
    var lines = ["BEGIN:VALARM", "UID:" + snoozeUID, "RELATED-TO;RELTYPE=SNOOZE:" + related,
                 "TRIGGER;VALUE=DATE-TIME:" + utc(until)]
    let action = alarm.lines.first { item.name(of: $0) == "ACTION" }.map { item.value(of: $0).uppercased() }
    lines.append("ACTION:" + (action == "AUDIO" ? "AUDIO" : "DISPLAY"))
    // DISPLAY requires a DESCRIPTION; the snoozed alarm's, folded as it was, else a plain one.
    if let description = alarm.lines.first(where: { item.name(of: $0) == "DESCRIPTION" }) {
      lines.append(item.raw(description))
    } else if action != "AUDIO" {
      lines.append("DESCRIPTION:Reminder")
    }
    lines.append("END:VALARM")
    edits.append(Edit(at: alarm.end.end, insert: lines))
    return item.applying(edits)
  }

  /// The UTC form RFC 5545 writes instants in: `20991124T093000Z`.
  static func utc(_ instant: Instant) -> String {
    let seconds = Int(CivilDate.floorDiv(instant.unixMillis, 1000))
    let days = CivilDate.floorDiv(seconds, 86_400)
    let c = CivilDate.civil(days)
    let second = seconds - days * 86_400
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let year = String(c.year)
    return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(c.month) + two(c.day) + "T"
      + two(second / 3600) + two(second / 60 % 60) + two(second % 60) + "Z"
  }

  private static func setting(_ name: String, to line: String, in alarm: ContentLines.Component, _ item: ContentLines) -> Edit {
    if let old = alarm.lines.first(where: { item.name(of: $0) == name }) {
      return Edit(replacing: old, with: [line])
    }
    return Edit(at: alarm.end.start, insert: [line])
  }

  private static func locate(_ item: ContentLines, _ target: Target) throws(Failure) -> ContentLines.Component {
    let components = item.components(depth: 1).filter { ["VEVENT", "VTODO"].contains($0.name) }
    guard target.componentIndex >= 0, target.componentIndex < components.count else {
      throw .componentNotFound(target.componentIndex)
    }
    let component = components[target.componentIndex]
    let uid = component.lines.first { item.name(of: $0) == "UID" }.map { item.value(of: $0) }
    guard uid == target.uid else { throw .uidMismatch(expected: target.uid, found: uid) }
    let alarms = item.components(depth: 2).filter { $0.name == "VALARM" && $0.begin.start > component.begin.start && $0.end.end <= component.end.start }
    guard target.alarmIndex >= 0, target.alarmIndex < alarms.count else { throw .alarmNotFound(target.alarmIndex) }
    return alarms[target.alarmIndex]
  }
}

/// One change to the text: bytes `range` replaced by `lines` (each ended with the file's line
/// ending); an insertion has an empty range.
struct Edit {
  var range: Range<Int>
  var lines: [String]

  init(at offset: Int, insert lines: [String]) {
    range = offset..<offset
    self.lines = lines
  }

  init(replacing line: ContentLines.Line, with lines: [String]) {
    range = line.start..<line.end
    self.lines = lines
  }
}
