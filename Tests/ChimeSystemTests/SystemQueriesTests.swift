import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// The questions the CLI asks the system through ChimeSystem (it imports no C library itself):
/// a path's status and why it cannot be written, whether a socket is listened on, local and
/// UTC times, a library loaded at run time.
@Suite struct SystemQueriesTests {
  let dir = TemporaryDirectory()

  @Test func statusErrorsNameTheCause() throws {
    #expect(throws: Errno.noSuchFile) { try FileSystem.statusOrError(dir.file("missing")) }
    let file = MediaCorpus.write(Data([1]), to: dir.file("file"))
    // A path under a regular file: ENOTDIR, which doctor reports as it is.
    let underFile = #expect(throws: Errno.self) { try FileSystem.statusOrError(file + "/below") }
    #expect(underFile != .noSuchFile)
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: file)
    #expect(try FileSystem.linkStatusOrError(dir.file("link")).isSymbolicLink)
    #expect(try FileSystem.statusOrError(dir.file("link")).isRegular)
  }

  @Test func writabilityAndVolume() throws {
    #expect(FileSystem.whyNotWritable(dir.path) == nil)
    #expect(FileSystem.whyNotWritable(dir.file("missing")) == .noSuchFile)
    let volume = try #require(FileSystem.volume(of: dir.path))
    #expect(!volume.isReadOnly && volume.availableBytes > 0)
    #expect(try #require(FileSystem.volume(of: "/proc")).availableBytes == 0)
    #expect(FileSystem.volume(of: dir.file("missing")) == nil)
  }

  @Test func aProbeTellsAListenerFromAStaleSocketFile() throws {
    let path = dir.file("s.sock")
    let listener = try UnixSocket.listen(path: path)
    #expect(UnixSocket.probe(path: path) == nil)
    listener.close()
    // The file stays behind with nothing listening: refused, as doctor calls it stale.
    #expect(UnixSocket.probe(path: path) == .connectionRefused)
    #expect(UnixSocket.probe(path: dir.file("none.sock")) == .noSuchFile)
    #expect(UnixSocket.probe(path: "/" + String(repeating: "x", count: 200)) == .nameTooLong)
  }

  @Test func brokenDownTimesInUTCAndRoundTrips() {
    // 2026-03-29 01:30:15 UTC, a Sunday.
    let t = BrokenDownTime(secondsSinceEpoch: 1_774_747_815, utc: true)
    #expect([t.year, t.month, t.day, t.hour, t.minute, t.second, t.utcOffsetSeconds] as [Int] == [2026, 3, 29, 1, 30, 15, 0])
    #expect(BrokenDownTime.utcSeconds(year: 2026, month: 3, day: 29, hour: 1, minute: 30, second: 15) == 1_774_747_815)
    // Out-of-range fields carry over: 24:00 is the next day's midnight.
    #expect(BrokenDownTime.utcSeconds(year: 2026, month: 3, day: 28, hour: 24, minute: 0, second: 0)
              == BrokenDownTime.utcSeconds(year: 2026, month: 3, day: 29, hour: 0, minute: 0, second: 0))
    let before = BrokenDownTime(secondsSinceEpoch: -1, utc: true)
    #expect([before.year, before.month, before.day, before.hour, before.minute, before.second] as [Int] == [1969, 12, 31, 23, 59, 59])
  }

  @Test func aLibraryLoadsAndNamesWhatItLacks() throws {
    let sqlite = try SharedLibrary("libsqlite3.so.0")
    typealias Version = @convention(c) () -> Int32
    let version = try #require(sqlite.function("sqlite3_libversion_number", as: Version.self))
    #expect(version() >= 3_040_000)
    #expect(sqlite.function("no_such_function", as: Version.self) == nil)
    #expect(throws: SharedLibrary.Failure.self) { try SharedLibrary("libno-such-library.so.9") }
  }
}
