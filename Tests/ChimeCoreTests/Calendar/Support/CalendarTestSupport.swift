import ChimeCore
import Foundation

/// SplitMix64: a small seeded generator, so random cases are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

enum CalendarTestSupport {
  static let zones = [
    "UTC", "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Australia/Lord_Howe",
    "Asia/Kathmandu", "Pacific/Apia", "Pacific/Chatham",
  ]

  static func components(_ build: (inout CalendarComponents) -> Void) -> CalendarComponents {
    var c = CalendarComponents()
    build(&c)
    return c
  }

  static func trigger(
    zone: String? = nil, repeats: Bool = true, gap: DSTGapPolicy = .nextValid, overlap: DSTOverlapPolicy = .first,
    _ build: (inout CalendarComponents) -> Void
  ) -> CalendarTrigger {
    var c = CalendarComponents()
    if let zone { c.timeZone = zone }
    build(&c)
    return CalendarTrigger(components: c, repeats: repeats, dstGap: gap, dstOverlap: overlap)
  }

  /// `2027-03-28T03:00:00+02:00` or `...Z`, or with milliseconds (`...T00:59:59.999Z`), as an
  /// instant.
  static func instant(_ iso: String) -> Instant {
    if iso.contains(".") {
      return Instant(try! Date(iso, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
    return Instant(try! Date(iso, strategy: .iso8601))
  }

  /// The local wall time of an instant in `zone`, as `yyyy-MM-dd HH:mm:ss`, from Foundation.
  static func local(_ instant: Instant, _ zone: String) -> String {
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = TimeZone(identifier: zone)!
    let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.date)
    return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
  }

  static func fires(_ trigger: CalendarTrigger, after: String, count: Int, zone: TimeZone = TimeZone(identifier: "UTC")!) -> [FireDate] {
    CalendarEngine.nextFires(after: instant(after), count: count, trigger: trigger, zone: zone)
  }
}
