/// One line of `chime-calendar scan`'s output, which chimed reads: what one file of a calendar
/// holds for a window. Tab-separated fields, each with `\`, tab, CR and LF escaped; an optional
/// text is empty for none and `+` then the text otherwise.
///
///     F <file> <alarms>              the file was read as an item with that many alarms
///     E <file> <message>             the file was skipped (unreadable or malformed)
///     G <file>                       the file named is not there (removed)
///     A <file> <uid> <recurrence> <at> <action> <sound> <repeat> <kind> <start> <end> <summary> <location> <description>
///     K <file> ...                   as A: an alarm in the window acknowledged (RFC 9074, X-MOZ-LASTACK)
///
/// A file's A and K lines come before its F line. `recurrence` is empty, `i<unix ms>` or
/// `d<wall seconds>` (an all-day occurrence); `at`, `start` and `end` are unix milliseconds.
public enum CalendarScanLine: Hashable, Sendable {
  case item(file: String, alarms: Int)
  case failed(file: String, message: String)
  case gone(file: String)
  case alarm(file: String, PlannedAlarm)
  /// An alarm in the window that was dismissed (on this device or another).
  case acknowledged(file: String, PlannedAlarm)

  /// The line, without its newline.
  public var encoded: String {
    switch self {
    case .item(let file, let alarms): return ["F", Self.escape(file), String(alarms)].joined(separator: "\t")
    case .failed(let file, let message): return ["E", Self.escape(file), Self.escape(message)].joined(separator: "\t")
    case .gone(let file): return ["G", Self.escape(file)].joined(separator: "\t")
    case .alarm(let file, let a): return Self.encode("A", file, a)
    case .acknowledged(let file, let a): return Self.encode("K", file, a)
    }
  }

  private static func encode(_ tag: String, _ file: String, _ a: PlannedAlarm) -> String {
    var sound = ""
    if case .audio(let file?) = a.action { sound = file }
    return [
      tag, Self.escape(file), Self.escape(a.uid), recurrence(a.recurrenceID), String(a.at.unixMillis), a.action.name,
      Self.optional(a.action == .display ? nil : sound), String(a.repeatIndex), a.componentKind.rawValue,
      a.occurrenceStart.map { String($0.unixMillis) } ?? "", a.occurrenceEnd.map { String($0.unixMillis) } ?? "",
      Self.optional(a.summary), Self.optional(a.location), Self.optional(a.alarmDescription),
    ].joined(separator: "\t")
  }

  /// An occurrence as the lines (and the store's calendar alarms) write it: empty for none,
  /// `i<unix ms>`, or `d<wall seconds>` for an all-day one.
  public static func recurrence(_ id: PlannedAlarm.OccurrenceID?) -> String {
    switch id {
    case nil: ""
    case .instant(let instant)?: "i\(instant.unixMillis)"
    case .date(let wall)?: "d\(wall.wallSeconds)"
    }
  }

  /// Reads `recurrence(_:)`'s text: `.some(nil)` for none, nil when it is not one of its forms.
  public static func recurrence(decoding r: String) -> PlannedAlarm.OccurrenceID?? {
    if r.isEmpty { return .some(nil) }
    if r.hasPrefix("i"), let ms = Int64(r.dropFirst()) { return .instant(Instant(unixMillis: ms)) }
    if r.hasPrefix("d"), let wall = Int64(r.dropFirst()) { return .date(LocalDateTime(wallSeconds: wall)) }
    return nil
  }

  /// Reads one line (without its newline); nil when it is not one of the forms above.
  public init?(decoding line: Substring) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(Self.unescape)
    guard let tag = fields.first, fields.count >= 2 else { return nil }
    let file = fields[1]
    switch tag {
    case "F":
      guard fields.count == 3, let alarms = Int(fields[2]) else { return nil }
      self = .item(file: file, alarms: alarms)
    case "E":
      guard fields.count == 3 else { return nil }
      self = .failed(file: file, message: fields[2])
    case "G":
      guard fields.count == 2 else { return nil }
      self = .gone(file: file)
    case "A", "K":
      guard fields.count == 14, let at = Int64(fields[4]), let repeatIndex = Int(fields[7]),
            let kind = CalendarComponent.Kind(rawValue: fields[8]) else { return nil }
      guard let recurrence = Self.recurrence(decoding: fields[3]) else { return nil }
      let action: PlannedAlarm.Action
      switch fields[5] {
      case "DISPLAY": action = .display
      case "AUDIO": action = .audio(soundFile: Self.optional(fields[6]).flatMap { $0.isEmpty ? nil : $0 })
      default: return nil
      }
      let alarm = PlannedAlarm(
        uid: fields[2], recurrenceID: recurrence, summary: Self.optional(fields[11]), alarmDescription: Self.optional(fields[13]),
        at: Instant(unixMillis: at), action: action, repeatIndex: repeatIndex, componentKind: kind,
        occurrenceStart: Int64(fields[9]).map { Instant(unixMillis: $0) }, location: Self.optional(fields[12]),
        occurrenceEnd: Int64(fields[10]).map { Instant(unixMillis: $0) })
      self = tag == "A" ? .alarm(file: file, alarm) : .acknowledged(file: file, alarm)
    default:
      return nil
    }
  }

  static func optional(_ text: String?) -> String { text.map { "+" + escape($0) } ?? "" }

  static func optional(_ field: String) -> String? { field.hasPrefix("+") ? String(field.dropFirst()) : nil }

  static func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return text }
    var out = ""
    for c in text.unicodeScalars {
      switch c {
      case "\\": out += "\\\\"
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  static func unescape(_ field: Substring) -> String {
    guard field.utf8.contains(0x5C) else { return String(field) }
    var out = ""
    var escaped = false
    for c in field.unicodeScalars {
      if escaped {
        switch c {
        case "t": out += "\t"
        case "n": out += "\n"
        case "r": out += "\r"
        default: out.unicodeScalars.append(c)
        }
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else {
        out.unicodeScalars.append(c)
      }
    }
    return out
  }
}
