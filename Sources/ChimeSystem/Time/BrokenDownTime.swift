import Glibc

/// An instant as a calendar date and a wall-clock time, in UTC or in the process's local zone
/// as the C library reads it (`$TZ`, else /etc/localtime): what a CLI prints for a person.
public struct BrokenDownTime: Hashable, Sendable {
  public var year: Int
  /// 1...12.
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  /// Seconds east of UTC in effect then (0 in UTC).
  public var utcOffsetSeconds: Int

  /// `seconds` since the Unix epoch, in UTC (`utc`) or the local zone.
  public init(secondsSinceEpoch seconds: Int64, utc: Bool) {
    _ = Self.zoneRead
    var time = time_t(seconds)
    var t = tm()
    if utc { gmtime_r(&time, &t) } else { localtime_r(&time, &t) }
    year = Int(t.tm_year) + 1900
    month = Int(t.tm_mon) + 1
    day = Int(t.tm_mday)
    hour = Int(t.tm_hour)
    minute = Int(t.tm_min)
    second = Int(t.tm_sec)
    utcOffsetSeconds = Int(t.tm_gmtoff)
  }

  /// The seconds since the Unix epoch of a UTC date and time (`timegm(3)`: out-of-range fields
  /// carry over, as 24:00 is the next day's 00:00).
  public static func utcSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
    var t = tm()
    t.tm_year = Int32(clamping: year - 1900)
    t.tm_mon = Int32(clamping: month - 1)
    t.tm_mday = Int32(clamping: day)
    t.tm_hour = Int32(clamping: hour)
    t.tm_min = Int32(clamping: minute)
    t.tm_sec = Int32(clamping: second)
    return Int64(timegm(&t))
  }

  /// The zone is read once, before the first local time.
  private static let zoneRead: Void = tzset()
}
