import Glibc
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Where an open file really is, which the store's and the sound lookup's containment checks
/// rest on.
@Suite struct FileSystemTests {
  let dir = TemporaryDirectory()

  func opened(_ path: String, _ body: (FileDescriptor) -> Void) throws {
    let file = try RegularFile.open(path)
    defer { file.close() }
    body(file.descriptor)
  }

  @Test func theOpenedPathIsCanonical() throws {
    let file = MediaCorpus.write(Data([1]), to: dir.file("real/a.png"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: dir.file("real"))
    let canonical = try #require(FileSystem.realPath(file))
    try opened(dir.file("link/a.png")) { fd in #expect((try? fd.openedPath()) == canonical) }
  }

  @Test func anUnlinkedFileHasNoPathButOneNamedDeletedDoes() throws {
    let named = MediaCorpus.write(Data([1]), to: dir.file("a.png (deleted)"))
    let canonical = try #require(FileSystem.realPath(named))
    try opened(named) { fd in #expect((try? fd.openedPath()) == canonical, "a file may be named so") }

    let gone = MediaCorpus.write(Data([1]), to: dir.file("b.png"))
    try opened(gone) { fd in
      #expect(throws: Never.self) { try FileSystem.unlink(gone) }
      #expect(throws: Errno.noSuchFile) { try fd.openedPath() }
    }

    // Opened by a name that is then unlinked while another link keeps the file.
    let first = MediaCorpus.write(Data([1]), to: dir.file("c.png"))
    try FileManager.default.linkItem(atPath: first, toPath: dir.file("d.png"))
    try opened(first) { fd in
      #expect(throws: Never.self) { try FileSystem.unlink(first) }
      #expect(throws: Errno.noSuchFile, "the name it was opened by is gone") { try fd.openedPath() }
    }
  }

  @Test func statusTellsKindsApartAndFollowsLinksOnlyWhenAsked() throws {
    let file = MediaCorpus.write(Data([1, 2, 3]), to: dir.file("f"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("l"), withDestinationPath: file)
    let regular = try #require(FileSystem.lstatus(file))
    #expect(regular.isRegular && regular.size == 3 && regular.linkCount == 1)
    #expect(FileSystem.lstatus(dir.file("l"))?.isSymbolicLink == true)
    #expect(FileSystem.status(dir.file("l"))?.inode == regular.inode)
    #expect(FileSystem.lstatus(dir.path)?.isDirectory == true)
    #expect(FileSystem.lstatus(dir.file("missing")) == nil)
    #expect(FileSystem.lstatus("/tmp")?.isSticky == true)
  }

  @Test func directoriesAreMadeWithParentsAndRenamesReplace() throws {
    try FileSystem.makeDirectories(dir.file("a/b/c"))
    try FileSystem.makeDirectories(dir.file("a/b/c"))  // already there: fine
    #expect(FileSystem.lstatus(dir.file("a/b/c"))?.permissions == 0o700)
    let from = MediaCorpus.write(Data([1]), to: dir.file("a/x"))
    let to = MediaCorpus.write(Data([2, 2]), to: dir.file("a/y"))
    try FileSystem.rename(from, to: to)
    #expect(FileSystem.lstatus(from) == nil && FileSystem.lstatus(to)?.size == 1)
    try FileSystem.syncDirectory(dir.file("a"))
    #expect(throws: Errno.noSuchFile) { try FileSystem.unlink(from) }
    #expect(throws: Errno.noSuchFile) { try FileSystem.syncDirectory(dir.file("nothing")) }
  }

  @Test(arguments: [
    ("relative/path", "must be an absolute path"),
    ("/a/../b", "must be normalized (no '.', '..' or empty components)"),
    ("/a//b", "must be normalized (no '.', '..' or empty components)"),
    ("/a/\u{0}", "contains a NUL byte"),
  ])
  func pathsMustBeAbsoluteAndNormalized(_ path: String, _ problem: String) {
    #expect(FileSystem.problem(withAbsolutePath: path) == problem)
    #expect(FileSystem.problem(withAbsolutePath: "/a/b.png") == nil)
  }
}

/// Removing a large file in steps: the name goes like `unlink`, the data of a file with no other
/// name is cut down first, and nothing reached through another name or a symlink is cut.
@Suite struct UnlinkInStepsTests {
  let dir = TemporaryDirectory()

  func size(_ fd: Int32) -> Int {
    var st = stat()
    return fstat(fd, &st) == 0 ? Int(st.st_size) : -1
  }

  @Test func aLargeFileIsCutDownBeforeItsNameGoes() throws {
    let path = MediaCorpus.write(Data(count: 10_000_123), to: dir.file("big.mp4"))
    // A descriptor held across the removal sees what became of the inode.
    let held = open(path, O_RDONLY)
    try #require(held >= 0)
    defer { close(held) }
    try FileSystem.unlinkInSteps(path, step: 1 << 20)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(size(held) == 10_000_123 % (1 << 20), "cut down a step at a time to less than one step")
  }

  @Test func aSmallFileIsOnlyUnlinked() throws {
    let path = MediaCorpus.write(Data(repeating: 7, count: 1000), to: dir.file("small.png"))
    let held = open(path, O_RDONLY)
    try #require(held >= 0)
    defer { close(held) }
    try FileSystem.unlinkInSteps(path, step: 1 << 20)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(size(held) == 1000)
  }

  @Test func dataReachedByAnotherNameOrASymlinkIsNotCut() throws {
    let data = Data(repeating: 1, count: 3 << 20)
    let linked = MediaCorpus.write(data, to: dir.file("linked.mp4"))
    try FileManager.default.linkItem(atPath: linked, toPath: dir.file("other-name.mp4"))
    try FileSystem.unlinkInSteps(linked, step: 1 << 20)
    #expect(!FileManager.default.fileExists(atPath: linked))
    #expect(FileManager.default.contents(atPath: dir.file("other-name.mp4")) == data, "the other name keeps every byte")

    let target = MediaCorpus.write(data, to: dir.file("target.mp4"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("symlink.mp4"), withDestinationPath: target)
    try FileSystem.unlinkInSteps(dir.file("symlink.mp4"), step: 1 << 20)
    #expect(FileSystem.lstatus(dir.file("symlink.mp4")) == nil, "the symlink itself goes")
    #expect(FileManager.default.contents(atPath: target) == data, "what it pointed to is untouched")
  }

  @Test func aMissingFileIsReportedAsUnlinkWould() {
    #expect(throws: Errno.noSuchFile) { try FileSystem.unlinkInSteps(dir.file("none"), step: 1 << 20) }
  }
}
