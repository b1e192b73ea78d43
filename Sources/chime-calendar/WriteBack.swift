import ChimeCalendar
import ChimeCore
import ChimeSystem

/// `chime-calendar write-back PATH ZONE NOW_MS REQUEST...`: what chimed runs when the user
/// dismisses or snoozes a calendar's alarm. Each REQUEST is an `AlarmWriteBack.Request`
/// (`encoded`); the item files they name in the calendar at PATH are edited as RFC 9074 says
/// (`CalendarWriteBack`), planned in ZONE. Prints one `AlarmWriteBack.Outcome` line per
/// request. Exit 0; 2 for a bad command line.
enum WriteBack {
  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 4, let zone = Zone.named(arguments[2]), let nowMillis = Int64(arguments[3]) else {
      StandardStreams.writeError("usage: chime-calendar write-back PATH ZONE NOW_MS REQUEST...\n")
      return 2
    }
    var requests: [AlarmWriteBack.Request] = []
    for text in arguments.dropFirst(4) {
      guard let request = AlarmWriteBack.Request(decoding: text) else {
        StandardStreams.writeError("chime-calendar write-back: not a request: \(text.prefix(200))\n")
        return 2
      }
      requests.append(request)
    }
    let zones = CalendarCollection.zones(userZone: zone)
    let outcomes = CalendarWriteBack.run(requests, calendar: arguments[1], zones: zones, now: Instant(unixMillis: nowMillis),
                                         newUID: RandomUUID.make)
    var out = ""
    for (number, outcome) in outcomes.enumerated() { out += outcome.encoded(number: number) + "\n" }
    print(out, terminator: "")
    return 0
  }
}
