import ChimeCore
import ChimeTestSupport
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
