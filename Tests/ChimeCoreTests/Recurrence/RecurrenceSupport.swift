import ChimeCore
import Foundation

/// Helpers for the recurrence tests: build a recurrence from text and list what it makes.
enum RecurrenceSupport {
  static func recurrence(_ rule: String, _ start: String, zone: String = "America/New_York", exclusions: [String] = []) throws -> Recurrence {
    try Recurrence(rule: rule, start: start, timeZone: zone, exclusions: exclusions)
  }

  /// The first `count` wall times the rule makes (`1997-09-02T09:00:00`), exclusions removed.
  static func walls(_ rule: String, _ start: String, zone: String = "America/New_York", exclusions: [String] = [], count: Int = 100) throws -> [String] {
    let r = try recurrence(rule, start, zone: zone, exclusions: exclusions)
    return RecurrenceEngine.occurrences(count: count, recurrence: r, zone: Zone.named("UTC")!).map(\.wall.description)
  }

  /// Up to `count` fires after `after` (ISO 8601 with an offset), as UTC text.
  static func fires(_ rule: String, _ start: String, zone: String, after: String, count: Int = 5, exclusions: [String] = []) throws -> [FireDate] {
    let r = try recurrence(rule, start, zone: zone, exclusions: exclusions)
    let instant = Instant(try Date(after, strategy: .iso8601))
    return RecurrenceEngine.nextFires(after: instant, count: count, recurrence: r, zone: Zone.named("UTC")!)
  }

  /// The error `body` throws, or nil.
  static func error(_ body: () throws(ChimeError) -> some Any) -> ChimeError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }
}
