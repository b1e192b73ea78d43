/// Text for wall times and offsets, without Foundation formatters.
enum WallTimeFormat {
  /// `2027-03-28T03:00:00+02:00`, or `...Z` when `offset` is nil.
  static func iso8601(wall: Int64, offset: Int?) -> String {
    let day = Int(CivilDate.floorDiv(wall, CivilDate.secondsPerDay))
    let secondOfDay = Int(wall - Int64(day) * CivilDate.secondsPerDay)
    return date(day) + "T" + time(secondOfDay, alwaysSeconds: true) + (offset.map(self.offset) ?? "Z")
  }

  /// `2027-03-28`.
  static func date(_ day: Int) -> String {
    let (y, m, d) = CivilDate.civil(day)
    let year = y >= 0 && y < 10_000 ? pad(y, 4) : String(y)
    return year + "-" + pad(m, 2) + "-" + pad(d, 2)
  }

  /// `03:00`, or `03:00:15` when the seconds are not zero (or `alwaysSeconds`).
  static func time(_ secondOfDay: Int, alwaysSeconds: Bool = false) -> String {
    let h = secondOfDay / 3600
    let m = secondOfDay / 60 % 60
    let s = secondOfDay % 60
    var text = pad(h, 2) + ":" + pad(m, 2)
    if alwaysSeconds || s != 0 { text += ":" + pad(s, 2) }
    return text
  }

  /// `+02:00`, `-03:30`, `+05:45` (with seconds for historical local mean time offsets).
  static func offset(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let a = abs(seconds)
    var text = sign + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    if a % 60 != 0 { text += ":" + pad(a % 60, 2) }
    return text
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
