/// IEEE 754 80-bit extended precision (AIFF's sample rate): sign, 15-bit exponent, 64-bit
/// mantissa with an explicit integer bit. Decoded without trapping; the caller checks range.
enum Extended80 {
  /// The value as a `Double`, or nil for zero, denormals without the integer bit,
  /// infinities, NaNs and values beyond `Double`'s range.
  static func decode(_ b: [UInt8]) -> Double? {
    guard b.count == 10 else { return nil }
    let negative = b[0] & 0x80 != 0
    let exponent = Int(b[0] & 0x7F) << 8 | Int(b[1])
    var mantissa: UInt64 = 0
    for i in 2..<10 { mantissa = mantissa << 8 | UInt64(b[i]) }
    guard exponent != 0x7FFF, mantissa != 0 else { return nil }
    // value = mantissa * 2^(exponent - 16383 - 63)
    let value = Double(sign: negative ? .minus : .plus, exponent: exponent - 16383 - 63, significand: Double(mantissa))
    guard value.isFinite, value != 0 else { return nil }
    return value
  }
}
