import Foundation
import Testing

/// What `chime` links is what every command pays for at start (release builds link statically:
/// see Package.swift). The modules it links import FoundationEssentials, never Foundation: one
/// `import Foundation` there (a `Thread`, a `JSONSerialization`, a `String(format:)`) links all
/// of Foundation and CoreFoundation back into `chime`, with CoreFoundation's start-up and ~730
/// more protocol conformances for the runtime to scan on each cast. Nor does it link GRDB.
/// (Debug builds link Foundation dynamically, so only a source check sees this in `make test`.)
@Suite struct CLILinkTests {
  static let directories = ["Sources/chime", "Sources/ChimeClient", "Sources/ChimeCore", "Sources/ChimeConfig",
                            "Sources/ChimeSystem", "Sources/ChimeWire", "Sources/ChimeRecords", "Sources/ChimeBuildInfo"]

  @Test func theCLIsModulesImportNeitherFoundationNorGRDB() throws {
    var found: [String] = []
    for directory in Self.directories {
      let files = RepositoryFiles.swiftFiles(under: directory)
      #expect(!files.isEmpty, "no sources under \(directory)")
      for file in files {
        for (index, line) in try RepositoryFiles.text(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let words = line.split(separator: " ")
          guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
          guard words[..<at].allSatisfy({ ["public", "internal", "package", "@preconcurrency", "@_implementationOnly"].contains($0) })
          else { continue }
          if ["Foundation", "GRDB"].contains(words[at + 1]) { found.append("\(file):\(index + 1): \(line)") }
        }
      }
    }
    #expect(found.isEmpty, "use FoundationEssentials (or ChimeSystem for threads and files): \(found.joined(separator: "; "))")
  }
}
