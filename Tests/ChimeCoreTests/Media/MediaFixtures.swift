import ChimeCore
import Foundation

/// The committed fixture corpus in Tests/Fixtures/media (made by its generate.sh), found from
/// this file's path so no package resources are needed.
enum MediaFixtures {
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // Media, ChimeCoreTests, Tests
    return url.appendingPathComponent("Fixtures/media").path
  }()

  static func path(_ name: String) -> String { root + "/" + name }

  static func bytes(_ name: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path(name)) else {
      fatalError("missing fixture \(name) under \(root)")
    }
    return [UInt8](data)
  }

  /// Fixture names (relative to the root) in one subdirectory, sorted.
  static func list(_ directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path(directory))) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
  }

  /// The attachment inspector's answer: facts, or the error it threw.
  static func inspect(_ bytes: [UInt8], typeHint: String = "", field: String = "") -> Result<MediaFacts, ChimeError> {
    do throws(ChimeError) {
      return .success(try MediaInspector.inspect(MemoryByteSource(bytes), typeHint: typeHint, field: field))
    } catch {
      return .failure(error)
    }
  }

  static func inspectionError(_ bytes: [UInt8], typeHint: String = "") -> ChimeError? {
    if case .failure(let e) = inspect(bytes, typeHint: typeHint) { return e }
    return nil
  }

  static func sound(_ bytes: [UInt8]) -> Result<SoundFacts, ChimeError> {
    do throws(ChimeError) {
      return .success(try SoundInspector.inspect(MemoryByteSource(bytes)))
    } catch {
      return .failure(error)
    }
  }

  static func soundError(_ bytes: [UInt8]) -> ChimeError? {
    if case .failure(let e) = sound(bytes) { return e }
    return nil
  }
}

/// Byte building and patching for the media tests (a namespace, so the helpers cannot clash
/// with other tests in this module).
enum MediaBytes {
  static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
  static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
  static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
  static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(v >> 32)) + be32(UInt32(v & 0xFFFF_FFFF)) }
  static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

  static func readBE32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
  }

  static func readLE32(_ b: [UInt8], _ at: Int) -> UInt32 {
    UInt32(b[at + 3]) << 24 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 1]) << 8 | UInt32(b[at])
  }

  /// A copy of `b` with the bytes at `offset` replaced.
  static func patch(_ b: [UInt8], at offset: Int, _ bytes: [UInt8]) -> [UInt8] {
    var copy = b
    copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    return copy
  }

  /// Offset of the first occurrence of `needle` (ASCII) at or after `start`.
  static func find(_ needle: String, in b: [UInt8], from start: Int = 0) -> Int? {
    let n = Array(needle.utf8)
    guard n.count <= b.count, start <= b.count - n.count else { return nil }
    for i in start...(b.count - n.count) where b[i] == n[0] && Array(b[i..<(i + n.count)]) == n {
      return i
    }
    return nil
  }

  /// Bitwise CRC-32 (independent of the one under test), for building PNG chunks.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      c ^= UInt32(b)
      for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~c
  }

  static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    be32(UInt32(data.count)) + ascii(type) + data + be32(crc32(ascii(type) + data))
  }

  /// IEEE 754 80-bit extended encoding of a positive finite `Double` (AIFF sample rates).
  static func extended80(_ x: Double) -> [UInt8] {
    let exponent = UInt16(Int(x.exponent) + 16383)
    let mantissa = UInt64(x.significand * 9_223_372_036_854_775_808.0)  // × 2^63
    return be16(exponent) + be64(mantissa)
  }
}

/// A tiny deterministic PRNG for the mutation smoke tests (SplitMix64).
struct MediaTestRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
