import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Opening once, not following a final symlink, regular files only: the messages name the path
/// and say what is there instead.
@Suite struct RegularFileTests {
  let dir = TemporaryDirectory()

  func failure(_ path: String) -> RegularFile.OpenFailure? {
    do throws(RegularFile.OpenFailure) {
      try RegularFile.open(path).close()
      return nil
    } catch {
      return error
    }
  }

  @Test func aRegularFileOpensWithItsFacts() throws {
    let path = MediaCorpus.write(Data([1, 2, 3, 4, 5]), to: dir.file("f"))
    let file = try RegularFile.open(path)
    defer { file.close() }
    let status = try #require(FileSystem.lstatus(path))
    #expect(file.size == 5 && file.inode == status.inode && file.device == status.device && file.linkCount == 1)
    #expect(try file.byteSource.read(at: 1, count: 3) == [2, 3, 4])
  }

  @Test func whatIsNotARegularFileIsNamed() throws {
    let target = MediaCorpus.write(Data([1]), to: dir.file("target"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: target)
    try FileManager.default.createDirectory(atPath: dir.file("dir"), withIntermediateDirectories: false)

    let missing = try #require(failure(dir.file("missing")))
    #expect(missing.kind == .missing && missing.message == "\(dir.file("missing")) does not exist")
    let notDirectory = try #require(failure(target + "/x"))
    #expect(notDirectory.kind == .missing && notDirectory.message.hasSuffix("(a component of the path is not a directory)"))
    let link = try #require(failure(dir.file("link")))
    #expect(link.kind == .symlink && link.message.hasPrefix("\(dir.file("link")) is a symbolic link"))
    let directory = try #require(failure(dir.file("dir")))
    #expect(directory.kind == .notRegular && directory.message == "\(dir.file("dir")) is not a regular file (it is a directory)")
    #expect(directory.errno == 0)
  }
}
