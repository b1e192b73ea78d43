import ChimeSystem
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

  @Test func aValueMayHoldEqualsSignsAndBeEmpty() {
    let name = "CHIME_ENV_TEST_\(getpid())"
    setenv(name, "a=b==c", 1)
    setenv(name + "_EMPTY", "", 1)
    defer {
      unsetenv(name)
      unsetenv(name + "_EMPTY")
    }
    let variables = ProcessEnvironment.variables
    #expect(variables[name] == "a=b==c")
    #expect(variables[name + "_EMPTY"] == "")
    #expect(ProcessEnvironment.variable(name) == "a=b==c")
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
