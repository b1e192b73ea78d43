import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `--version` names the release and, built from a git clone, the commit (scripts/git-revision.sh
/// through the GitRevision plugin), the same for both binaries.
@Suite(.testTimeLimit) struct VersionTests {
  @Test func theReleaseNumberWithTheRevisionWhenKnown() {
    #expect(ChimeVersion.described(revision: nil) == ChimeVersion.string)
    #expect(ChimeVersion.described(revision: "") == ChimeVersion.string)
    #expect(ChimeVersion.described(revision: "1a2b3c4d5e6f-dirty") == "\(ChimeVersion.string) (git 1a2b3c4d5e6f-dirty)")
  }

  @Test func bothBinariesPrintTheCommitTheyWereBuiltFrom() throws {
    let cli = try ChimeCLI.run(["--version"])
    let daemon = try ChildProcess.run(DaemonProcess.binDirectory + "/chimed", ["--version"])
    #expect(cli.status == 0 && daemon.status == 0)
    let printed = cli.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(daemon.output.trimmingCharacters(in: .whitespacesAndNewlines) == printed)
    #expect(printed.hasPrefix(ChimeVersion.string))
    // Built from a clone (CI's, a developer's): the commit named is this clone's HEAD or, when
    // commits were made since the build, one of its ancestors.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    guard let head = try? ChildProcess.run("/usr/bin/git", ["-C", root, "rev-parse", "HEAD"]), head.status == 0 else { return }
    let prefix = "\(ChimeVersion.string) (git "
    #expect(printed.hasPrefix(prefix) && printed.hasSuffix(")"), "a clone's build names its commit: \(printed)")
    let named = printed.dropFirst(prefix.count).dropLast().replacingOccurrences(of: "-dirty", with: "")
    #expect(named.count == 12)
    let ancestry = try ChildProcess.run("/usr/bin/git", ["-C", root, "merge-base", "--is-ancestor", String(named), "HEAD"])
    #expect(ancestry.status == 0, "\(named) is not HEAD or before it: \(ancestry.errors)")
  }
}
