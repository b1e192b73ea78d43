/// The one way a set of weekdays is written, read by `--calendar weekday=…` and by
/// `chime dnd schedule --days` (and D-Bus's `days`) alike: days by name (`mon` or `monday`, or
/// at least the first three letters of the name, in any case), ranges running forward through
/// the week (`mon-fri`; `fri-mon` wraps over the weekend), joined with `+` (`mon+wed+fri`,
/// `mon-wed+sat`) — the form written back — or with `,` where a comma cannot be misread (it is
/// in `--days`; in `--calendar` a day after a comma is no component, so it joins the weekday's
/// days). `all`, `daily` and `every-day` are every day. A refusal reads the same wherever the
/// set was given.
public enum WeekdaySetText {
  /// Why a set was refused.
  public struct Refusal: Error, Hashable, Sendable {
    public let message: String
  }

  /// The days, numbered 1 = Sunday … 7 = Saturday (as `CalendarComponents.weekday`), sorted,
  /// each once. With `numbers`, a day may also be that number (the calendar's numbering).
  ///
  /// - Throws: `Refusal` naming the piece that is no day or range, or saying the set is empty.
  public static func parse(_ text: String, numbers: Bool = false) throws(Refusal) -> [Int] {
    let whole = text.trimmingWhitespace().lowercased()
    if ["all", "daily", "every-day"].contains(whole) { return Array(1...7) }
    guard !whole.isEmpty else { throw Refusal(message: "no weekday given: \(accepted)") }
    // A leading + before a number is its sign (weekday=+3), not a separator.
    let list = numbers && whole.hasPrefix("+") && whole.dropFirst().first?.isNumber == true ? String(whole.dropFirst()) : whole
    var days: Set<Int> = []
    for item in list.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "+" || $0 == "," }) {
      let piece = item.trimmingWhitespace()
      guard !piece.isEmpty else { throw Refusal(message: "\"\(text)\" has an empty day: \(accepted)") }
      if let one = day(piece, numbers: numbers) {
        days.insert(one)
        continue
      }
      let ends = piece.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
      guard ends.count == 2, let from = day(ends[0], numbers: numbers), let to = day(ends[1], numbers: numbers) else {
        throw Refusal(message: "\"\(piece)\" is not a weekday or a range of weekdays: \(accepted)")
      }
      var d = from
      while true {
        days.insert(d)
        if d == to { break }
        d = d % 7 + 1
      }
    }
    return days.sorted()
  }

  /// The set as `parse` reads it back, Monday first: `mon-fri`, `mon+wed+fri`, `sat+sun`,
  /// `mon+fri-sun`; runs of three or more days as ranges.
  public static func text(_ days: [Int]) -> String {
    // Monday-first positions 0…6 of the calendar's days.
    let present = Set(days.map { ($0 + 5) % 7 })
    var parts: [String] = []
    var i = 0
    while i < 7 {
      guard present.contains(i) else { i += 1; continue }
      var j = i
      while j + 1 < 7, present.contains(j + 1) { j += 1 }
      if j - i >= 2 {
        parts.append(shortNames[i] + "-" + shortNames[j])
      } else {
        parts.append(contentsOf: shortNames[i...j])
      }
      i = j + 1
    }
    return parts.joined(separator: "+")
  }

  /// What a set may be, the tail of every refusal.
  public static let accepted = "give days as mon, tue, wed, thu, fri, sat, sun (or the full name), a range (mon-fri), "
    + "or several joined with + (mon+wed+fri)"

  /// Short names, Monday first.
  static let shortNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

  /// One day's calendar number: a name, or at least its first three letters, or (with
  /// `numbers`) 1…7.
  private static func day(_ text: String, numbers: Bool) -> Int? {
    if text.count >= 3, let index = fullNames.firstIndex(where: { $0.hasPrefix(text) }) { return (index + 1) % 7 + 1 }
    if numbers, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text), (1...7).contains(n) { return n }
    return nil
  }
}
