import Testing

/// chimed and every module it links import no Foundation at all: one `import
/// FoundationEssentials` (or ArgumentParser or TOMLKit, which import it) keeps
/// FoundationEssentials' JSON, plist, Calendar and regex code in the static chimed (about 7 MB
/// stripped; its release link would fail first). The CLI and ChimeClient may use it. Debug
/// builds link it dynamically, so only a source check sees an import creep back there.
@Suite struct FoundationBoundaryTests {
  /// The module an `import` line names (`import Foundation`, `public import struct
  /// FoundationEssentials.Date`, `@preconcurrency import Foundation`), or nil.
  static func importedModule(_ line: Substring) -> Substring? {
    let words = line.split(separator: " ")
    guard let at = words.firstIndex(of: "import"),
          words[..<at].allSatisfy({ ["public", "internal", "package", "private", "fileprivate", "@preconcurrency", "@_implementationOnly",
                                      "@_exported", "@testable"].contains($0) })
    else { return nil }
    var rest = words[(at + 1)...]
    if let kind = rest.first, ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"].contains(kind) { rest = rest.dropFirst() }
    return rest.first?.split(separator: ".").first
  }

  @Test func importedModulesAreReadFromEveryFormOfImport() {
    #expect(Self.importedModule("import Foundation") == "Foundation")
    #expect(Self.importedModule("public import struct FoundationEssentials.Date") == "FoundationEssentials")
    #expect(Self.importedModule("@preconcurrency import Foundation") == "Foundation")
    #expect(Self.importedModule("import ChimeCore") == "ChimeCore")
    #expect(Self.importedModule("/// what to import Foundation for") == nil)
  }

  @Test func theDaemonsLayersImportNoFoundation() throws {
    var found: [String] = []
    for directory in ["Sources/ChimeZoneFiles", "Sources/ChimeCore", "Sources/ChimeSystem", "Sources/ChimeCalendar", "Sources/ChimeStore", "Sources/ChimeRecords",
                      "Sources/ChimeWire", "Sources/ChimeServer", "Sources/ChimeNativeTransport", "Sources/ChimeGRPC", "Sources/ChimeDBus",
                      "Sources/ChimeConfig", "Sources/chimed"] {
      let files = RepositoryFiles.swiftFiles(under: directory)
      #expect(!files.isEmpty, "no sources under \(directory)")
      for file in files {
        for (index, line) in try RepositoryFiles.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          if let module = Self.importedModule(line), module.hasPrefix("Foundation") || module == "ArgumentParser" || module == "TOMLKit" {
            found.append("\(file):\(index + 1): \(line)")
          }
        }
      }
    }
    #expect(found.isEmpty, "ChimeCore has JSONWriter and the text helpers, ChimeSystem the system calls and files: \(found.joined(separator: "; "))")
  }
}
