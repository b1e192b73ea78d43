public import FoundationEssentials
import Glibc

/// The zone the machine is in now, read fresh each time (Foundation's `TimeZone.current` is
/// fixed when first read): `$TZ` if set, else the zone `/etc/localtime` links to, else
/// Foundation's answer.
public enum SystemTimeZone {
  /// The zone as the machine has it now (never fails: Foundation's answer last).
  @Sendable
  public static func current() -> TimeZone {
    zone(tz: ProcessEnvironment.variables["TZ"], localtimeLink: localtimeLink()) ?? TimeZone.current
  }

  /// The zone `$TZ` names (a leading `:` allowed), else the one a `/etc/localtime` link target
  /// names (`.../zoneinfo/Europe/Berlin`); nil when neither names a known zone.
  public static func zone(tz: String?, localtimeLink: String?) -> TimeZone? {
    if let tz, !tz.isEmpty {
      let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
      if let zone = TimeZone(identifier: name) { return zone }
    }
    if let target = localtimeLink, let range = target.firstRange(of: "zoneinfo/") {
      return TimeZone(identifier: String(target[range.upperBound...]))
    }
    return nil
  }

  /// Where `/etc/localtime` links to, or nil when it is not a link.
  private static func localtimeLink() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/etc/localtime", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
