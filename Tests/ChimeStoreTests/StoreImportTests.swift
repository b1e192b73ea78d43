import Foundation
import Testing

/// ChimeStore imports FoundationEssentials, never Foundation, and no GRDB: one `import
/// Foundation` there links swift-corelibs Foundation, CoreFoundation and ICU back into chimed
/// (release builds link statically). Debug builds link Foundation dynamically, so only a source
/// check sees this in `make test`.
@Suite struct StoreImportTests {
  static let sources: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // the file, ChimeStoreTests, Tests
    return url.appendingPathComponent("Sources/ChimeStore").path
  }()

  @Test func theStoreImportsNeitherFoundationNorGRDB() throws {
    let files = (FileManager.default.subpaths(atPath: Self.sources) ?? []).filter { $0.hasSuffix(".swift") }
    #expect(files.count > 20, "no sources under \(Self.sources)")
    var found: [String] = []
    for file in files {
      let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let words = line.split(separator: " ")
        guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
              words[..<at].allSatisfy({ ["public", "internal", "package", "@preconcurrency", "@_implementationOnly"].contains($0) })
        else { continue }
        if ["Foundation", "GRDB", "GRDBSQLite"].contains(words[at + 1]) { found.append("\(file):\(index + 1): \(line)") }
      }
    }
    #expect(found.isEmpty, "use FoundationEssentials: \(found.joined(separator: "; "))")
  }
}
