/// Reasons of calendar sources (issue 41): registering, listing and removing them.
extension Reason {
  /// A calendar name that is empty, too long, or not letters, digits, `-` and `_`.
  public static let invalidCalendarName = Reason("INVALID_CALENDAR_NAME", .invalidArgument)
  /// A calendar's path does not exist, or is neither a directory nor a `.ics` file.
  public static let invalidCalendarPath = Reason("INVALID_CALENDAR_PATH", .invalidArgument)
  /// A calendar with that name is already registered.
  public static let calendarExists = Reason("CALENDAR_EXISTS", .alreadyExists)
  /// No calendar with that name is registered.
  public static let calendarNotFound = Reason("CALENDAR_NOT_FOUND", .notFound)
}
