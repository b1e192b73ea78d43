import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `--version` names the release and, built from a git clone, the commit (scripts/git-revision.sh
/// through the GitRevision plugin), the same for both binaries.
@Suite struct VersionTests {
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
    // The package this test was built from: a clone (CI's, a developer's) shows its commit.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let git = try? ChildProcess.run("/usr/bin/git", ["-C", root, "rev-parse", "--short=12", "HEAD"])
    if let git, git.status == 0 {
      let commit = git.output.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(printed.hasPrefix("\(ChimeVersion.string) (git \(commit)"), "built at \(commit), says \(printed)")
    }
  }
}
