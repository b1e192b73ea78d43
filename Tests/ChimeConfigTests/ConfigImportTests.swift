import Foundation
import Testing

/// chimed and ChimeConfig import no Foundation (not even FoundationEssentials), no
/// ArgumentParser and no TOMLKit: each brings FoundationEssentials into the static chimed,
/// whose metadata keeps its JSON, plist, Calendar and regex code (about 7 MB). Debug builds link
/// them dynamically, so only a source check sees one come back in `make test`.
@Suite struct ConfigImportTests {
  static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // the file, ChimeConfigTests, Tests
    return url
  }()

  @Test func chimedAndChimeConfigImportNoFoundation() throws {
    var found: [String] = [], count = 0
    for directory in ["Sources/chimed", "Sources/ChimeConfig"] {
      let path = Self.root.appendingPathComponent(directory).path
      for file in (FileManager.default.subpaths(atPath: path) ?? []) where file.hasSuffix(".swift") {
        count += 1
        let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let words = line.split(separator: " ")
          guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                words[..<at].allSatisfy({ ["public", "internal", "package", "@preconcurrency", "@_implementationOnly"].contains($0) })
          else { continue }
          if ["Foundation", "FoundationEssentials", "ArgumentParser", "TOMLKit"].contains(words[at + 1]) {
            found.append("\(directory)/\(file):\(index + 1): \(line)")
          }
        }
      }
    }
    #expect(count > 15, "no sources under \(Self.root.path)")
    #expect(found.isEmpty, "chimed and ChimeConfig use ChimeSystem and the standard library: \(found.joined(separator: "; "))")
  }
}
