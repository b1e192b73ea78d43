import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `JSONWriter` writes what FoundationEssentials' `JSONEncoder` writes for the same values,
/// byte for byte: the presenter command's payload and the store's records kept their text when
/// ChimeCore stopped linking Foundation.
@Suite struct JSONWriterTests {
  /// A `JSONWriter.Value` as `JSONEncoder` sees it.
  struct Encoded: Encodable {
    var value: JSONWriter.Value
    init(_ value: JSONWriter.Value) { self.value = value }

    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
      switch value {
      case .object(let members):
        var container = encoder.container(keyedBy: Key.self)
        for member in members { try container.encode(Encoded(member.value), forKey: Key(stringValue: member.key)) }
      case .array(let elements):
        var container = encoder.unkeyedContainer()
        for element in elements { try container.encode(Encoded(element)) }
      case .string(let text):
        var container = encoder.singleValueContainer()
        try container.encode(text)
      case .integer(let number):
        var container = encoder.singleValueContainer()
        try container.encode(number)
      case .double(let number):
        var container = encoder.singleValueContainer()
        try container.encode(number)
      case .bool(let flag):
        var container = encoder.singleValueContainer()
        try container.encode(flag)
      case .null:
        var container = encoder.singleValueContainer()
        try container.encodeNil()
      }
    }
  }

  static func foundation(_ value: JSONWriter.Value, escapingSlashes: Bool) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(Encoded(value)), as: UTF8.self)
  }

  static func expectSame(_ value: JSONWriter.Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for escaping in [false, true] {
      #expect(JSONWriter.text(value, escapingSlashes: escaping) == (try foundation(value, escapingSlashes: escaping)),
              "escapingSlashes: \(escaping)", sourceLocation: sourceLocation)
    }
  }

  /// Text that needs care: every ASCII character, controls, DEL, C1 controls, the JavaScript
  /// line terminators U+2028/U+2029, a BOM, non-characters, combining marks, emoji and flags.
  static let awkward: [String] = [
    "", " ", "\"", "\\", "/", "//", "\\/", "</script>", "a\"b\\c/d", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}",
    "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}", "\u{10FFFF}", "e\u{301}", "👩‍👩‍👧", "🇩🇪", "日本語",
    "\r\n", "\t\u{0B}\u{0C}\u{08}", "\u{1B}[31m", "\u{0}", "\u{1F}", "null", "true", "1e5", "{\"a\":1}",
    String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
  ]

  @Test func stringsAreEscapedAsFoundationEscapesThem() throws {
    for text in Self.awkward { try Self.expectSame(.string(text)) }
    for scalar in (0..<0x3000).compactMap(Unicode.Scalar.init) {
      try Self.expectSame(.string("<\(Character(scalar))>"))
    }
  }

  @Test func controlsHaveTheirShortFormsOrLowercaseHex() {
    #expect(JSONWriter.text(.string("\u{8}\u{C}\n\r\t")) == #""\b\f\n\r\t""#)
    #expect(JSONWriter.text(.string("\u{0}\u{1}\u{1A}\u{1F}")) == #""\u0000\u0001\u001a\u001f""#)
    #expect(JSONWriter.text(.string("a/b")) == #""a/b""#)
    #expect(JSONWriter.text(.string("a/b"), escapingSlashes: true) == #""a\/b""#)
    #expect(JSONWriter.text(.string("\u{2028}\u{7F}")) == "\"\u{2028}\u{7F}\"")
  }

  @Test func integersAsFoundationWritesThem() throws {
    var generator = SplitMix64(seed: 8259)
    var numbers: [Int64] = [0, 1, -1, 9, 10, -10, 255, Int64(Int32.max), Int64(Int32.min), .max, .min, .max - 1, .min + 1]
    for _ in 0..<2000 { numbers.append(Int64(bitPattern: generator.next()) >> Int64.random(in: 0...63, using: &generator)) }
    for number in numbers { try Self.expectSame(.integer(number)) }
  }

  @Test func doublesAsFoundationWritesThem() throws {
    var generator = SplitMix64(seed: 754)
    var numbers: [Double] = [0, -0.0, 1, -1, 0.5, 0.1, 0.2 + 0.1, 1.5, 100, 1e15, 1e16, 1e17, 1e21, 1e22, 1e-5, 1e-7,
                             123_456_789.125, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                             Double(Int64.max), 9_007_199_254_740_992, .pi, -.ulpOfOne]
    for _ in 0..<3000 {
      let random = Double(bitPattern: generator.next())
      if random.isFinite { numbers.append(random) }
      numbers.append(Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000)
    }
    for number in numbers { try Self.expectSame(.double(number)) }
    #expect(JSONWriter.text(.array([.double(.nan), .double(.infinity)])) == "[null,null]")
  }

  @Test func nestedValuesAsFoundationWritesThem() throws {
    var generator = SplitMix64(seed: 2028)
    func value(depth: Int) -> JSONWriter.Value {
      switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
      case 0: return .string(Self.awkward.randomElement(using: &generator)!)
      case 1: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
      case 2: return .double(Double(Int.random(in: -10_000...10_000, using: &generator)) / 64)
      case 3: return .bool(Bool.random(using: &generator))
      case 4: return .null
      case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(depth: depth + 1) })
      default:
        // Distinct lowercase keys, given sorted (JSONEncoder is asked for sorted keys).
        let keys = Set((0..<Int.random(in: 0...5, using: &generator)).map { _ in
          String((0..<Int.random(in: 1...6, using: &generator)).map { _ in "abcxyz_/".randomElement(using: &generator)! })
        }).sorted()
        return .object(keys.map { JSONWriter.Member($0, value(depth: depth + 1)) })
      }
    }
    for _ in 0..<500 { try Self.expectSame(value(depth: 0)) }
    // Keys are escaped as strings are.
    try Self.expectSame(.object([JSONWriter.Member("a\"/\u{1}\u{2028}", .null)]))
  }
}
