import Testing

/// Which module may import which (Package.swift's layers, dependencies pointing down), checked
/// in the sources: a target may import any module SwiftPM can find, declared or not.
@Suite struct LayerImportTests {
  /// Every `import` of `module` under `directory`, as `file:line: text`, with the words before
  /// `import` (`internal`, `package`, `@_exported`, ...).
  static func imports(of module: String, under directory: String) throws -> [(place: String, modifiers: [Substring])] {
    var found: [(String, [Substring])] = []
    for file in RepositoryFiles.swiftFiles(under: directory) {
      for (index, line) in try RepositoryFiles.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard FoundationBoundaryTests.importedModule(line) == Substring(module) else { continue }
        let words = line.split(separator: " ")
        found.append(("\(file):\(index + 1): \(line)", Array(words[..<words.firstIndex(of: "import")!])))
      }
    }
    return found
  }

  /// The store keeps its rows in ChimeRecords' format; the wire layer (frames, calls, the call
  /// table) and the generated C are not its business.
  @Test func theStoreImportsNeitherTheWireLayerNorTheGeneratedC() throws {
    for module in ["ChimeWire", "CChimeProto", "ChimeServer", "ChimeClient"] {
      let found = try Self.imports(of: module, under: "Sources/ChimeStore").map(\.place)
      #expect(found.isEmpty, "ChimeStore imports \(module): \(found.joined(separator: "; "))")
    }
  }

  /// The record codec sits below the wire layer: it knows the records, not the calls.
  @Test func theRecordCodecImportsNothingAboveIt() throws {
    for module in ["ChimeWire", "ChimeStore", "ChimeServer", "ChimeClient", "ChimeSystem"] {
      let found = try Self.imports(of: module, under: "Sources/ChimeRecords").map(\.place)
      #expect(found.isEmpty, "ChimeRecords imports \(module): \(found.joined(separator: "; "))")
    }
  }

  /// No CChimeProto pointer leaves ChimeWire and ChimeRecords: only they import the generated C,
  /// ChimeWire internally. ChimeRecords shares its message builders with ChimeWire at package
  /// level; the files whose generic helpers are `@inlinable` import it publicly (an inlinable
  /// body may only name what is public or `@usableFromInline`), and those files declare public
  /// types with package members only, so no public declaration can name a generated type.
  @Test func theGeneratedCStaysInTheWireLayerAndTheRecordCodec() throws {
    for directory in RepositoryFiles.directories(under: "Sources") + RepositoryFiles.directories(under: "Tests") {
      let found = try Self.imports(of: "CChimeProto", under: directory)
      switch directory {
      case "Sources/ChimeWire":
        for (place, modifiers) in found { #expect(modifiers == ["internal"], "\(place)") }
      case "Sources/ChimeRecords":
        for (place, modifiers) in found {
          #expect(modifiers == ["internal"] || modifiers == ["package"] || modifiers == ["public"], "\(place)")
          guard modifiers == ["public"] else { continue }
          let file = String(place.prefix { $0 != ":" })
          for line in try RepositoryFiles.text(file).split(separator: "\n")
          where line.contains("public ") && !line.contains("import ") && !line.trimmingPrefix(while: { $0 == " " }).hasPrefix("//") {
            let declaresAType = line.contains("public enum ") || line.contains("public final class ") || line.contains("public struct ")
            #expect(declaresAType && !line.hasPrefix(" "), "\(file): a public member next to a public import of the generated C: \(line)")
          }
        }
      default:
        #expect(found.isEmpty, "\(directory) imports CChimeProto: \(found.map(\.place).joined(separator: "; "))")
      }
    }
  }
}
