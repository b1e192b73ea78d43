import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The file functions close what they open on every path, the failing ones included: after
/// many calls no descriptor of this process still points into the test's directory.
@Suite struct FileSystemDescriptorTests {
  let dir = TemporaryDirectory()

  /// The descriptors of this process open on `path` or below it (other tests' descriptors,
  /// opened meanwhile, point elsewhere).
  func descriptors(under path: String) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd) else { return false }
      return target == path || target.hasPrefix(path + "/")
    }.count
  }

  @Test func noDescriptorOutlivesItsCall() throws {
    let root = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path
    #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data("x = 1\n".utf8)))
    try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: false)
    #expect(chmod(root + "/sub", 0) == 0 || getuid() == 0)
    for _ in 0..<200 {
      #expect(try FileSystem.contents(root + "/file") == Array("x = 1\n".utf8))
      #expect(throws: Errno.noSuchFile) { try FileSystem.contents(root + "/missing") }
      #expect(throws: Errno(EISDIR)) { try FileSystem.contents(root) }
      #expect(throws: Errno.notADirectory) { try FileSystem.contents(root + "/file/x") }
      #expect(try FileSystem.directoryEntries(root).sorted() == ["file", "sub"])
      #expect(throws: Errno.notADirectory) { try FileSystem.directoryEntries(root + "/file") }
      if getuid() != 0 { #expect(throws: Errno(EACCES)) { try FileSystem.directoryEntries(root + "/sub") } }
    }
    _ = chmod(root + "/sub", 0o700)
    #expect(try descriptors(under: root) == 0)
    // The count sees a descriptor left open.
    let open = Glibc.open(root + "/file", O_RDONLY | O_CLOEXEC)
    #expect(try descriptors(under: root) == 1)
    close(open)
  }
}
