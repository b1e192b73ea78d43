@testable import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// The UUIDs that name stored attachments and pushed requests: the text Foundation's
/// `UUID().uuidString.lowercased()` gave, random version-4 values.
@Suite struct RandomUUIDTests {
  static func isCanonical(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (i, b) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(i) {
        guard b == UInt8(ascii: "-") else { return false }
      } else {
        guard (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f")) else { return false }
      }
    }
    return true
  }

  @Test func lowercaseEightFourFourFourTwelveVersionFour() throws {
    for _ in 0..<1000 {
      let text = RandomUUID.make()
      #expect(Self.isCanonical(text), "\(text)")
      let chars = Array(text)
      #expect(chars[14] == "4", "version 4: \(text)")
      #expect("89ab".contains(chars[19]), "RFC 4122 variant: \(text)")
      // Foundation reads it back as the same UUID.
      let parsed = try #require(UUID(uuidString: text))
      #expect(parsed.uuidString.lowercased() == text)
    }
  }

  @Test func theBytesAreWrittenInOrder() {
    let bytes: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
    #expect(RandomUUID.text(bytes) == "00112233-4455-6677-8899-aabbccddeeff")
    let u = UUID(uuid: (0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF))
    #expect(RandomUUID.text(bytes) == u.uuidString.lowercased())
  }

  @Test func onlyTheVersionAndVariantBitsAreFixed() {
    var generator = SplitMix64(seed: 27)
    var ones = [UInt8](repeating: 0, count: 16), zeros = [UInt8](repeating: 0xFF, count: 16)
    for _ in 0..<500 {
      let bytes = RandomUUID.bytes(using: &generator)
      #expect(bytes[6] >> 4 == 4 && bytes[8] >> 6 == 2)
      for i in 0..<16 {
        ones[i] |= bytes[i]
        zeros[i] &= bytes[i]
      }
    }
    // Every other bit was seen both set and clear: 122 random bits.
    var expectedOnes = [UInt8](repeating: 0xFF, count: 16), expectedZeros = [UInt8](repeating: 0, count: 16)
    expectedOnes[6] = 0x4F
    expectedOnes[8] = 0xBF
    expectedZeros[6] = 0x40
    expectedZeros[8] = 0x80
    #expect(ones == expectedOnes)
    #expect(zeros == expectedZeros)
  }

  @Test func noneRepeats() {
    var seen: Set<String> = []
    for _ in 0..<20_000 { seen.insert(RandomUUID.make()) }
    #expect(seen.count == 20_000)
  }
}
