/// The calendar service of a running daemon, until its calls are on the wire (tests use it).
extension ChimeDaemon {
  /// Runs `body` on the loop with the calendar service, if the daemon is running.
  func withCalendars(_ body: @escaping @Sendable (CalendarService) -> Void) {
    onLoop { parts in
      if let calendars = parts.stack?.service.calendars { body(calendars) }
    }
  }
}
