import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The lock that keeps two daemons off one socket and one store.
@Suite(.testTimeLimit) struct FileLockTests {
  let dir = TemporaryDirectory()

  @Test func aSecondHolderIsRefusedAndToldWhoHoldsIt() throws {
    let first = try FileLock.acquire(dir.file("a.lock"))
    #expect(throws: FileLock.Failure.held(pid: getpid())) {
      try FileLock.acquire(dir.file("a.lock"), patience: 20)
    }
    first.release()
    // Patience, not 0: a child another test spawns may hold the description between its fork
    // and exec for a moment, as in aLockLetGoWhileWaitingIsTaken.
    let second = try FileLock.acquire(dir.file("a.lock"), patience: 5_000)
    second.release()
  }

  @Test func aLockLetGoWhileWaitingIsTaken() throws {
    let first = try FileLock.acquire(dir.file("b.lock"))
    // Like a child between spawn and exec holding the description for a moment.
    let releaser = Thread { usleep(30_000); first.release() }
    releaser.start()
    let second = try FileLock.acquire(dir.file("b.lock"), patience: 5_000)
    second.release()
  }

  @Test func aFileThatCannotBeOpenedIsAFailureNotAHolder() {
    #expect(throws: FileLock.Failure.failed(Errno(ENOENT))) {
      try FileLock.acquire(dir.file("missing/c.lock"))
    }
  }
}
