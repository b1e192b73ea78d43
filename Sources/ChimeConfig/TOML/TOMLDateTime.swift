/// A full date, `YYYY-MM-DD`.
public struct TOMLDate: Equatable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  public var description: String { "\(TOMLDate.digits(year, 4))-\(TOMLDate.digits(month, 2))-\(TOMLDate.digits(day, 2))" }

  static func digits(_ value: Int, _ count: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, count - text.count)) + text
  }
}

/// A time of day, `HH:MM:SS` with an optional fraction, kept to nanoseconds (further digits
/// are dropped, as TOML allows).
public struct TOMLTime: Equatable, Sendable, CustomStringConvertible {
  public let hour: Int
  public let minute: Int
  public let second: Int
  public let nanosecond: Int

  public init(hour: Int, minute: Int, second: Int, nanosecond: Int) {
    self.hour = hour
    self.minute = minute
    self.second = second
    self.nanosecond = nanosecond
  }

  public var description: String {
    var text = "\(TOMLDate.digits(hour, 2)):\(TOMLDate.digits(minute, 2)):\(TOMLDate.digits(second, 2))"
    if nanosecond != 0 { text += "." + TOMLDate.digits(nanosecond, 9) }
    return text
  }
}
