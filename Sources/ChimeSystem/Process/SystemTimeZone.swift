public import ChimeCore
import Glibc

/// The zone the machine is in now, read fresh each time: `$TZ` if it names a zone, else the
/// zone `/etc/localtime` links to, else the one `/etc/timezone` names, else UTC. Zones come from
/// the system's zoneinfo tree (`ZoneDirectory.system`).
public enum SystemTimeZone {
  /// The zone as the machine has it now (never fails: UTC last).
  @Sendable
  public static func current() -> Zone {
    zone(tz: ProcessEnvironment.variables["TZ"], localtimeLink: localtimeLink()) ?? timezoneFile() ?? .utc
  }

  /// The zone `$TZ` names (a leading `:` allowed), else the one a `/etc/localtime` link target
  /// names (`.../zoneinfo/Europe/Berlin`); nil when neither names a known zone.
  public static func zone(tz: String?, localtimeLink: String?) -> Zone? {
    if let tz, !tz.isEmpty {
      let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
      if let zone = Zone.named(name) { return zone }
    }
    if let target = localtimeLink, let range = target.firstRange(of: "zoneinfo/") {
      return Zone.named(String(target[range.upperBound...]))
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

  /// The zone Debian's `/etc/timezone` names (its first line), when `/etc/localtime` is a copy.
  private static func timezoneFile() -> Zone? {
    guard let file = fopen("/etc/timezone", "re") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return Zone.named(line.trimmingWhitespaceAndNewlines())
  }
}
