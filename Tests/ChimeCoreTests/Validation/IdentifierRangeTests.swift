import ChimeCore
import Testing

/// The identifier rule, checked over every code point whose UTF-8 takes one or two bytes: an
/// identifier is refused exactly when it holds a control character (C0, DEL or C1). The
/// validator answers pure ASCII on a fast path and everything else by the general rule; each
/// code point is tried in an ASCII-only identifier and beside a multi-byte character, so the
/// two paths are held to the same answer.
@Suite struct IdentifierRangeTests {
  func refused(_ identifier: String) -> Bool {
    do {
      try RequestValidator.validateIdentifier(identifier, field: "identifier")
      return false
    } catch {
      #expect(error.reason == "INVALID_IDENTIFIER" && error.field == "identifier" && error.code == .invalidArgument)
      return true
    }
  }

  /// Unicode's control characters (general category Cc), written out.
  func isControl(_ value: UInt32) -> Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

  @Test func everyByteValueIsJudgedTheSameOnBothPaths() {
    for value in UInt32(0)...0xFF {
      let scalar = Unicode.Scalar(value)!
      let c = String(Character(scalar))
      #expect(scalar.properties.generalCategory == .control ? isControl(value) : !isControl(value), "U+\(value): Unicode's category")
      let expected = isControl(value)
      // Alone, first, between and last; ASCII-only when `value` is below 0x80.
      for identifier in [c, c + "tea", "tea" + c + "cup", "tea" + c] {
        #expect(refused(identifier) == expected, "U+\(value) in \(identifier.debugDescription)")
      }
      // The same beside a multi-byte character: the general rule's answer.
      for identifier in ["é" + c, c + "日本", "🔔" + c + "x"] {
        #expect(refused(identifier) == expected, "U+\(value) in \(identifier.debugDescription)")
      }
    }
  }

  @Test func delIsRefusedWhereverItStands() {
    for identifier in ["\u{7F}", "a\u{7F}", "\u{7F}a", "tea\u{7F}cup", "é\u{7F}", "\u{7F}日本", String(repeating: "a", count: 255) + "\u{7F}"] {
      #expect(refused(identifier), "\(identifier.debugDescription)")
    }
    #expect(!refused("~"), "0x7E, the last printable ASCII character")
    #expect(!refused(" "), "0x20, the first")
  }

  @Test func multiByteCharactersOutsideTheControlsAreAccepted() {
    for identifier in ["é", "日本語", "🔔", "a\u{200B}b", "x\u{2028}y", "\u{A0}", "\u{FEFF}", "\u{10FFFF}"] {
      #expect(!refused(identifier), "\(identifier.debugDescription)")
    }
  }

  @Test func theByteLimitIsTheSameOnBothPaths() {
    #expect(!refused(String(repeating: "a", count: 256)))
    #expect(refused(String(repeating: "a", count: 257)))
    #expect(!refused(String(repeating: "é", count: 128)))  // 256 bytes
    #expect(refused(String(repeating: "é", count: 128) + "a"))  // 257
    #expect(refused(""))
  }
}
