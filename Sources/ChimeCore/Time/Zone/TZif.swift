/// The contents of a TZif file (RFC 8536) that Chime uses: the 64-bit transitions of a
/// version 2+ file and its footer rule. Parsed from bytes; reading the file is ChimeSystem's.
public struct TZifData: Equatable, Sendable {
  /// UTC seconds at which `offsets[i + 1]` takes over from `offsets[i]`; strictly increasing.
  public var transitions: [Int64]
  /// Seconds east of UTC; `offsets[0]` holds before the first transition (time type 0),
  /// `offsets.count == transitions.count + 1`.
  public var offsets: [Int]
  /// The POSIX TZ string for instants after the last transition; nil when the footer is empty
  /// (the last offset holds for ever).
  public var footer: PosixZoneRule?
}

/// Why a TZif file was refused.
public struct TZifError: Error, Equatable, Sendable, CustomStringConvertible {
  public var reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

public enum TZif {
  /// No offset in a valid file is outside RFC 8536's range (-25:59:59 to +25:59:59).
  static let offsetLimit = 93_599

  /// Parses a version 2 or later TZif file. Refuses, with a reason, anything truncated or
  /// inconsistent, a version 1 file (no 64-bit data) and a file with leap seconds (the `right/`
  /// zones: Chime counts POSIX seconds).
  public static func parse(_ bytes: [UInt8]) throws(TZifError) -> TZifData {
    var reader = Reader(bytes: bytes)
    let first = try reader.header()
    guard first.version >= 2 else { throw TZifError("TZif version 1 file (no 64-bit data)") }
    // Skip the 32-bit block: its counts are those of the first header.
    try reader.skip(first.timecnt * 5 + first.typecnt * 6 + first.charcnt + first.leapcnt * 8
                    + first.isstdcnt + first.isutcnt)
    let h = try reader.header()
    guard h.leapcnt == 0 else { throw TZifError("leap-second records (a right/ zone) are not supported") }
    guard h.typecnt >= 1 else { throw TZifError("no local time types") }
    guard h.isstdcnt == 0 || h.isstdcnt == h.typecnt, h.isutcnt == 0 || h.isutcnt == h.typecnt else {
      throw TZifError("standard/UT indicator counts do not match the type count")
    }
    var times: [Int64] = []
    times.reserveCapacity(h.timecnt)
    for _ in 0..<h.timecnt { times.append(try reader.int64()) }
    var typeIndices: [Int] = []
    typeIndices.reserveCapacity(h.timecnt)
    for _ in 0..<h.timecnt { typeIndices.append(Int(try reader.byte())) }
    var typeOffsets: [Int] = []
    for _ in 0..<h.typecnt {
      let utoff = Int(try reader.int32())
      _ = try reader.byte()  // isdst
      let abbreviation = Int(try reader.byte())
      guard abs(utoff) <= offsetLimit else { throw TZifError("offset \(utoff) s is out of range") }
      guard abbreviation < max(h.charcnt, 1) else { throw TZifError("abbreviation index out of range") }
      typeOffsets.append(utoff)
    }
    try reader.skip(h.charcnt + h.isstdcnt + h.isutcnt)
    for (k, t) in times.enumerated() where k > 0 && t <= times[k - 1] {
      throw TZifError("transition times are not increasing")
    }
    var offsets = [typeOffsets[0]]
    for index in typeIndices {
      guard index < typeOffsets.count else { throw TZifError("transition type index \(index) out of range") }
      offsets.append(typeOffsets[index])
    }
    let footer = try reader.footer()
    let rule: PosixZoneRule?
    if footer.isEmpty {
      rule = nil
    } else {
      do { rule = try PosixZoneRule(footer) } catch { throw TZifError("footer \"\(footer)\": \(error.reason)") }
    }
    return TZifData(transitions: times, offsets: offsets, footer: rule)
  }

  private struct Header {
    var version: Int
    var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int
  }

  private struct Reader {
    let bytes: [UInt8]
    var at = 0

    mutating func need(_ n: Int) throws(TZifError) {
      guard n >= 0, bytes.count - at >= n else { throw TZifError("truncated at byte \(bytes.count)") }
    }

    mutating func skip(_ n: Int) throws(TZifError) {
      try need(n)
      at += n
    }

    mutating func byte() throws(TZifError) -> UInt8 {
      try need(1)
      defer { at += 1 }
      return bytes[at]
    }

    mutating func uint32() throws(TZifError) -> UInt32 {
      try need(4)
      defer { at += 4 }
      return bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func int32() throws(TZifError) -> Int32 { Int32(bitPattern: try uint32()) }

    mutating func int64() throws(TZifError) -> Int64 {
      try need(8)
      defer { at += 8 }
      return Int64(bitPattern: bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) })
    }

    mutating func header() throws(TZifError) -> Header {
      try need(44)
      guard bytes[at..<at + 4].elementsEqual("TZif".utf8) else { throw TZifError("not a TZif file (bad magic)") }
      at += 4
      let v = try byte()
      let version: Int
      switch v {
      case 0: version = 1
      case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(v - UInt8(ascii: "0"))
      default: throw TZifError("unknown TZif version byte \(v)")
      }
      try skip(15)
      // Each count is bounded so that a hostile header cannot make the reader allocate much.
      var counts: [Int] = []
      for _ in 0..<6 {
        let n = try uint32()
        guard n <= 1 << 20 else { throw TZifError("count \(n) is implausibly large") }
        counts.append(Int(n))
      }
      return Header(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
                    timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
    }

    /// The text between the two newlines that end a version 2+ file.
    mutating func footer() throws(TZifError) -> String {
      guard try byte() == UInt8(ascii: "\n") else { throw TZifError("no footer after the data") }
      guard let end = bytes[at...].firstIndex(of: UInt8(ascii: "\n")) else { throw TZifError("unterminated footer") }
      let text = bytes[at..<end]
      guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { throw TZifError("footer is not printable ASCII") }
      at = end + 1
      return String(decoding: text, as: UTF8.self)
    }
  }
}
