import ChimeCore
import Foundation
import Testing

/// ChimeCore's trimming and fixed-point text give what Foundation's `trimmingCharacters(in:)`
/// and `String(format:)` gave before the CLI stopped linking Foundation.
@Suite struct PlainTextTests {
  static let samples = [
    "", " ", "\t", "plain", "  both  ", "\tTab\t", " \n line \n ", "\r\nwindows\r\n", "\u{A0}nbsp\u{3000}",
    "\u{2028}separators\u{2029}", "\u{85}next\u{85}", " inner  space ", "é ", " ☕️", "\u{200B}zero width\u{200B}",
    "\u{0B}\u{0C}vertical", "a\u{301} ",
  ]

  @Test(arguments: samples)
  func trimmingMatchesFoundation(text: String) {
    #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
  }

  /// Every scalar up to U+FFFF, alone and around a word.
  @Test func everyScalarIsJudgedAsFoundationJudgesIt() {
    for value in UInt32(0)...0xFFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(scalar) + "x" + String(scalar)
      #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "U+\(String(value, radix: 16))")
      #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "U+\(String(value, radix: 16))")
    }
  }

  @Test func fixedMatchesPrintf() {
    var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.95, 0.949999, 1, 1.5, 2.5, -2.5, 0.001, 123.456789,
                            1e-7, Double.leastNonzeroMagnitude, 0.5e-6, 1e15 + 0.3, 18_446_744_073_709_549_568, -1e-10, 86_399.95, 1.0 / 3]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let exponent = Double(Int.random(in: -12...18, using: &generator))
      values.append(Double.random(in: -1...1, using: &generator) * pow(10, exponent))
    }
    for value in values {
      for digits in [0, 1, 3, 6, 9] {
        #expect(PlainText.fixed(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value) with \(digits)")
      }
    }
  }

  @Test func fixedLeavesWhatPrintfWouldSpellOutToSwift() {
    #expect(PlainText.fixed(.infinity, digits: 1) == "inf")
    #expect(PlainText.fixed(1e30, digits: 1) == "1e+30")
  }
}
