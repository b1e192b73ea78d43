import ChimeCore
import ChimeTestSupport
import Foundation

/// The calendar tests' seeded generator: ChimeTestSupport's SplitMix64 under the name these
/// tests use (the test files themselves need not import ChimeTestSupport).
struct SeededGenerator: RandomNumberGenerator {
  private var base: SplitMix64
  init(seed: UInt64) { base = SplitMix64(seed: seed) }
  mutating func next() -> UInt64 { base.next() }
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

  static func fires(_ trigger: CalendarTrigger, after: String, count: Int, zone: Zone = Zone.named("UTC")!) -> [FireDate] {
    CalendarEngine.nextFires(after: instant(after), count: count, trigger: trigger, zone: zone)
  }
}
