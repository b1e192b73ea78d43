public import Foundation
import Glibc

/// The zone the machine is in now, read fresh each time (Foundation's `TimeZone.current` is
/// fixed when first read): `$TZ` if set, else the zone `/etc/localtime` links to, else
/// Foundation's answer.
public enum SystemTimeZone {
  @Sendable
  public static func current() -> TimeZone {
    if let tz = ProcessInfo.processInfo.environment["TZ"], !tz.isEmpty {
      let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
      if let zone = TimeZone(identifier: name) { return zone }
    }
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/etc/localtime", &buffer, buffer.count - 1)
    if n > 0 {
      let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let range = target.range(of: "zoneinfo/"), let zone = TimeZone(identifier: String(target[range.upperBound...])) {
        return zone
      }
    }
    return TimeZone.current
  }
}
