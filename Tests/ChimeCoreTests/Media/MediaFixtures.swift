import ChimeCore
import ChimeTestSupport
import Foundation

/// The committed fixture corpus (`MediaCorpus`, Tests/Fixtures/media) as bytes, and the
/// inspectors' answers on bytes in memory.
enum MediaFixtures {
  static func bytes(_ name: String) -> [UInt8] { [UInt8](MediaCorpus.data(name)) }

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
