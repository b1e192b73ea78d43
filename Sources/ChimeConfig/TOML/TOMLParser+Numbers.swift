/// Integers, floats, dates and times.
extension TOMLParser {
  mutating func numberOrDate() throws(TOMLError) -> TOMLValue {
    if digits(at: index, 4), byte(at: index + 4) == UInt8(ascii: "-") { return try dateOrDateTime() }
    if digits(at: index, 2), byte(at: index + 2) == UInt8(ascii: ":") { return .localTime(try time()) }
    return try number()
  }

  // MARK: Numbers

  /// `42`, `-17`, `1_000`, `0xDEAD_BEEF`, `0o755`, `0b1101`, `3.14`, `6.02e23`, `1E-7`, `inf`,
  /// `-nan`: the token up to the next delimiter, all of it one number or an error.
  mutating func number() throws(TOMLError) -> TOMLValue {
    let start = index
    while let byte = peek(), Self.isNumberByte(byte) { index += 1 }
    let token = Array(bytes[start..<index])
    let text = String(decoding: token, as: UTF8.self)
    func invalid(_ why: String) -> TOMLError { error(at: start, "invalid number \(text): \(why)") }

    var body = token[...]
    var negative = false
    if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      body = body.dropFirst()
    }
    switch String(decoding: body, as: UTF8.self) {
    case "inf": return .float(negative ? -.infinity : .infinity)
    case "nan": return .float(negative ? -.nan : .nan)
    default: break
    }
    if body.count >= 2, body.first == UInt8(ascii: "0"),
       let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][body[body.startIndex + 1]] {
      guard body.startIndex == token.startIndex else { throw invalid("a hexadecimal, octal or binary integer has no sign") }
      let digits = body.dropFirst(2)
      try checkUnderscores(digits, invalid)
      var value: Int64 = 0
      for byte in digits where byte != UInt8(ascii: "_") {
        guard let digit = Self.hexDigit(byte), Int(digit) < radix else {
          throw invalid("'\(Character(Unicode.Scalar(byte)))' is not a base-\(radix) digit")
        }
        let (shifted, overflow) = value.multipliedReportingOverflow(by: Int64(radix))
        let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
        guard !overflow, !overflow2 else { throw invalid("out of the range of a 64-bit integer") }
        value = sum
      }
      return .integer(value)
    }

    // Decimal: an integer part, then a fraction, an exponent, or both for a float.
    var rest = body
    let integerPart = rest.prefix { Self.isDigit($0) || $0 == UInt8(ascii: "_") }
    rest = rest.dropFirst(integerPart.count)
    guard !integerPart.isEmpty else { throw invalid("expected a digit") }
    try checkUnderscores(integerPart, invalid)
    if integerPart.count > 1, integerPart.first == UInt8(ascii: "0") { throw invalid("leading zeros are not allowed") }
    var isFloat = false
    if rest.first == UInt8(ascii: ".") {
      isFloat = true
      rest = rest.dropFirst()
      let fraction = rest.prefix { Self.isDigit($0) || $0 == UInt8(ascii: "_") }
      rest = rest.dropFirst(fraction.count)
      guard !fraction.isEmpty else { throw invalid("expected digits after the decimal point") }
      try checkUnderscores(fraction, invalid)
    }
    if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
      isFloat = true
      rest = rest.dropFirst()
      if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
      let exponent = rest.prefix { Self.isDigit($0) || $0 == UInt8(ascii: "_") }
      rest = rest.dropFirst(exponent.count)
      guard !exponent.isEmpty else { throw invalid("expected digits in the exponent") }
      try checkUnderscores(exponent, invalid)
    }
    guard rest.isEmpty else { throw invalid("unexpected '\(Character(Unicode.Scalar(rest.first!)))'") }
    let plain = String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
    if isFloat {
      guard let double = Double(plain) else { throw invalid("not a floating-point number") }
      return .float(double)
    }
    guard let int = Int64(plain) else { throw invalid("out of the range of a 64-bit integer") }
    return .integer(int)
  }

  /// Each underscore stands between two digits.
  private func checkUnderscores(_ digits: ArraySlice<UInt8>, _ invalid: (String) -> TOMLError) throws(TOMLError) {
    guard !digits.isEmpty else { throw invalid("expected digits") }
    var previousWasDigit = false
    for byte in digits {
      if byte == UInt8(ascii: "_") {
        guard previousWasDigit else { throw invalid("an underscore must stand between two digits") }
        previousWasDigit = false
      } else {
        previousWasDigit = true
      }
    }
    guard previousWasDigit else { throw invalid("an underscore must stand between two digits") }
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// What a number's token may hold; the delimiters of a value (space, comma, bracket, brace,
  /// '#', newline) end it.
  static func isNumberByte(_ byte: UInt8) -> Bool {
    isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
  }

  // MARK: Dates and times

  func digits(at offset: Int, _ count: Int) -> Bool {
    (0..<count).allSatisfy { byte(at: offset + $0).map(Self.isDigit) ?? false }
  }

  /// The number of the `count` digits at the current position (checked by `digits(at:_:)`).
  mutating func readNumber(_ count: Int, what: String) throws(TOMLError) -> Int {
    guard digits(at: index, count) else { throw error("expected \(count) digits for the \(what), found \(found())") }
    var value = 0
    for _ in 0..<count {
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    return value
  }

  mutating func expect(_ byte: UInt8, in what: String) throws(TOMLError) {
    guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))' in the \(what), found \(found())") }
    index += 1
  }

  /// `1979-05-27`, then perhaps a time (after `T`, `t` or one space) and an offset.
  mutating func dateOrDateTime() throws(TOMLError) -> TOMLValue {
    let start = index
    let year = try readNumber(4, what: "year")
    try expect(UInt8(ascii: "-"), in: "date")
    let month = try readNumber(2, what: "month")
    try expect(UInt8(ascii: "-"), in: "date")
    let day = try readNumber(2, what: "day")
    guard (1...12).contains(month) else { throw error(at: start, "invalid date: month \(month) (01 to 12)") }
    let days = Self.daysIn(month: month, year: year)
    guard (1...days).contains(day) else { throw error(at: start, "invalid date: day \(day) (this month has \(days))") }
    let date = TOMLDate(year: year, month: month, day: day)
    switch peek() {
    case UInt8(ascii: "T"), UInt8(ascii: "t"):
      index += 1
    case UInt8(ascii: " ") where digits(at: index + 1, 2) && byte(at: index + 3) == UInt8(ascii: ":"):
      index += 1
    default:
      return .localDate(date)
    }
    let time = try time()
    switch peek() {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      index += 1
      return .offsetDateTime(date, time, offsetMinutes: 0)
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign = peek() == UInt8(ascii: "-") ? -1 : 1
      let at = index
      index += 1
      let hours = try readNumber(2, what: "offset's hours")
      try expect(UInt8(ascii: ":"), in: "offset")
      let minutes = try readNumber(2, what: "offset's minutes")
      guard hours <= 23, minutes <= 59 else { throw error(at: at, "invalid offset: hours 00 to 23, minutes 00 to 59") }
      return .offsetDateTime(date, time, offsetMinutes: sign * (hours * 60 + minutes))
    default:
      return .localDateTime(date, time)
    }
  }

  /// `07:32:00`, perhaps with a fraction of a second (kept to nanoseconds).
  mutating func time() throws(TOMLError) -> TOMLTime {
    let start = index
    let hour = try readNumber(2, what: "hour")
    try expect(UInt8(ascii: ":"), in: "time")
    let minute = try readNumber(2, what: "minute")
    try expect(UInt8(ascii: ":"), in: "time (seconds are required)")
    let second = try readNumber(2, what: "second")
    guard hour <= 23, minute <= 59, second <= 59 else {
      throw error(at: start, "invalid time: hour 00 to 23, minute and second 00 to 59")
    }
    var nanosecond = 0
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard let first = peek(), Self.isDigit(first) else { throw error("expected digits after the decimal point of the seconds") }
      var scale = 100_000_000
      while let byte = peek(), Self.isDigit(byte) {
        nanosecond += Int(byte - UInt8(ascii: "0")) * scale
        scale /= 10
        index += 1
      }
    }
    return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
