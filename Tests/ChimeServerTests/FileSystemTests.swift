@testable import ChimeServer
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Where an open file really is, which the store's and the sound lookup's containment checks
/// rest on.
@Suite struct FileSystemTests {
  let dir = TemporaryDirectory()

  func opened(_ path: String, _ body: (Int32) -> Void) {
    let fd = open(path, O_RDONLY)
    #expect(fd >= 0, "open \(path)")
    defer { close(fd) }
    body(fd)
  }

  @Test func theOpenedPathIsCanonical() throws {
    let file = MediaCorpus.write(Data([1]), to: dir.file("real/a.png"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: dir.file("real"))
    let canonical = try #require(FileSystem.realPath(file))
    opened(dir.file("link/a.png")) { fd in #expect(FileSystem.openedPath(fd) == canonical) }
  }

  @Test func anUnlinkedFileHasNoPathButOneNamedDeletedDoes() throws {
    let named = MediaCorpus.write(Data([1]), to: dir.file("a.png (deleted)"))
    let canonical = try #require(FileSystem.realPath(named))
    opened(named) { fd in #expect(FileSystem.openedPath(fd) == canonical, "a file may be named so") }

    let gone = MediaCorpus.write(Data([1]), to: dir.file("b.png"))
    opened(gone) { fd in
      #expect(unlink(gone) == 0)
      #expect(FileSystem.openedPath(fd) == nil)
    }

    // Opened by a name that is then unlinked while another link keeps the file.
    let first = MediaCorpus.write(Data([1]), to: dir.file("c.png"))
    #expect(link(first, dir.file("d.png")) == 0)
    opened(first) { fd in
      #expect(unlink(first) == 0)
      #expect(FileSystem.openedPath(fd) == nil, "the name it was opened by is gone")
    }
  }
}
