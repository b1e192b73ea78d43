@testable import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The environment and directory listings read with libc agree with what Foundation reads.
@Suite struct ProcessEnvironmentTests {
  @Test func theVariablesAreFoundationsEnvironment() {
    #expect(ProcessEnvironment.variables == ProcessInfo.processInfo.environment)
    #expect(ProcessEnvironment.variable("PATH") == ProcessInfo.processInfo.environment["PATH"])
    #expect(ProcessEnvironment.variable("CHIME_SURELY_NOT_SET_\(getpid())") == nil)
  }

  /// The rules of splitting entries, on a list of this test's own: setenv(3) here would race
  /// with the tests that read the environment meanwhile (tests run in parallel, and setenv may
  /// move the array another thread is walking).
  @Test func aValueMayHoldEqualsSignsAndBeEmpty() {
    let entries = ["NAME=a=b==c", "EMPTY=", "NO_EQUALS", "NAME=second", "=nameless", "LAST=1"]
    var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let variables = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.variables(of: $0.baseAddress) }
    #expect(variables == ["NAME": "a=b==c", "EMPTY": "", "": "nameless", "LAST": "1"], "the first of a name is kept, as getenv finds it")
    #expect(ProcessEnvironment.variables(of: nil) == [:], "environ after clearenv(3)")
  }
}

@Suite struct DirectoryEntriesTests {
  let dir = TemporaryDirectory()

  @Test func listsWhatFoundationListsWithoutDotAndDotDot() throws {
    for name in ["a", ".hidden", "with space", "ünï", "b.staging"] {
      #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data([1])))
    }
    try FileManager.default.createDirectory(atPath: dir.file("sub"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: "sub")
    let mine = try FileSystem.directoryEntries(dir.path).sorted()
    #expect(mine == ["a", ".hidden", "with space", "ünï", "b.staging", "sub", "link"].sorted())
    #expect(mine == (try FileManager.default.contentsOfDirectory(atPath: dir.path)).sorted())
    // A symlink to a directory is followed; an empty directory has no entries.
    #expect(try FileSystem.directoryEntries(dir.file("link")) == [])
  }

  @Test func whatIsNoDirectoryThrows() throws {
    #expect(throws: Errno.noSuchFile) { try FileSystem.directoryEntries(dir.file("missing")) }
    #expect(FileManager.default.createFile(atPath: dir.file("file"), contents: Data()))
    #expect(throws: Errno(ENOTDIR)) { try FileSystem.directoryEntries(dir.file("file")) }
  }
}
