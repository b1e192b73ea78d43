import Testing

/// Where C may be imported (Package.swift's layers): the domain and the store stay pure, and the CLI
/// asks the system through ChimeSystem. Each exception is one file, named with its reason.
@Suite struct CBoundaryTests {
  /// Files that import Glibc although their target does not, and why.
  static let allowed: [String: String] = [
    // Swift's Mutex is a futex ThreadSanitizer does not see (make test-tsan would report every
    // access it guards as a race); the pthread mutex it follows needs Glibc.
    "Sources/ChimeSystem/Concurrency/Locked.swift": "a pthread mutex ThreadSanitizer follows",
    // An SQLite VFS that gathers a commit's WAL writes into one pwrite.
    "Sources/ChimeStore/Internal/WALWriteBuffer.swift": "the WAL write-gathering VFS",
    // The protobuf-c allocator: a few chunks per message, malloc'd and freed here.
    "Sources/ChimeRecords/Internal/CArena.swift": "the codec's arena",
  ]

  @Test func glibcStaysOutOfTheDomainTheStoreAndTheCLI() throws {
    var found: [String] = []
    for directory in ["Sources/ChimeCore", "Sources/ChimeStore", "Sources/chime", "Sources/ChimeRecords", "Sources/ChimeWire", "Sources/ChimeConfig"] {
      for file in RepositoryFiles.swiftFiles(under: directory) where Self.allowed[file] == nil {
        let imports = try RepositoryFiles.text(file).split(separator: "\n").contains { line in
          let words = line.split(separator: " ")
          guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { return false }
          return words[at + 1] == "Glibc"
        }
        if imports { found.append(file) }
      }
    }
    #expect(found.isEmpty, "route system calls through ChimeSystem: \(found.joined(separator: ", "))")
  }
}
