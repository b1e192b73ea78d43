/// A registered calendar (issue 41): a vdir collection directory or one `.ics` file whose
/// alarms chimed schedules under an app id of the calendar's own, so authorization, settings
/// and Do Not Disturb apply to it as to any app.
public struct CalendarSource: Hashable, Sendable {
  /// One file that could not be read or parsed at the last scan that looked at it.
  public struct FileError: Hashable, Sendable {
    /// The file's name in the collection (the file's own path for a one-file calendar); empty
    /// for the calendar as a whole, whose last whole scan failed (chimed tries it again).
    public var file: String
    public var message: String

    public init(file: String, message: String) {
      self.file = file
      self.message = message
    }
  }

  public var name: String
  /// Absolute: the collection directory or the `.ics` file.
  public var path: String
  /// `io.github.chime.calendar.<name>`.
  public var appID: String
  public var added: Instant
  /// When a whole or partial scan last committed (nil: none yet).
  public var lastScan: Instant?
  /// Files read as items at their last scan.
  public var itemCount: Int
  /// Alarms scheduled now (pending requests of the calendar's app that came from its items).
  public var alarmCount: Int
  /// Files skipped at their last scan, by name.
  public var errors: [FileError]

  public init(name: String, path: String, added: Instant, lastScan: Instant? = nil, itemCount: Int = 0, alarmCount: Int = 0,
              errors: [FileError] = []) {
    self.name = name
    self.path = path
    appID = Self.appID(for: name)
    self.added = added
    self.lastScan = lastScan
    self.itemCount = itemCount
    self.alarmCount = alarmCount
    self.errors = errors
  }

  /// The app id a calendar's alarms are posted under.
  public static let appIDPrefix = "io.github.chime.calendar."

  public static func appID(for name: String) -> String { appIDPrefix + name }

  /// Longest name, in bytes (the app id stays far inside `Limits.appIDMaxBytes`).
  public static let nameMaxBytes = 64

  /// Checks a calendar's name: 1 to 64 ASCII letters, digits, `-` and `_`, so that it is one
  /// segment of a valid reverse-DNS app id.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_NAME`.
  public static func validate(name: String) throws(ChimeError) {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= nameMaxBytes,
          bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F })
    else {
      throw ChimeError(.invalidCalendarName,
                       "calendar name \(AppID.quoted(name)) must be 1 to \(nameMaxBytes) letters, digits, '-' or '_' (it becomes part of the app id \(appIDPrefix)NAME)",
                       field: "name")
    }
    try AppID.validate(appID(for: name))
  }
}
