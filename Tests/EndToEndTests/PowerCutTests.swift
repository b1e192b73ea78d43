import ChimeTestSupport
import Foundation
import Testing

/// A power cut, not just a kill: chimed's database files lose every write made since their last
/// sync (`WriteCut`), so an add acknowledged before its commit reached the disk would be lost.
/// This is what holds `synchronous=FULL` and the reply-after-commit order in place (with
/// `synchronous=NORMAL` the WAL is synced only at checkpoints, and these rounds lose
/// acknowledged adds). `CHIME_CUT_ROUNDS` runs more rounds.
@Suite(.scaledTimeLimit(by: "CHIME_CUT_ROUNDS", secondsEach: 15)) struct PowerCutTests {
  @Test func acknowledgedRequestsSurvivePowerCuts() async throws {
    var options = CrashRounds.Options.fromEnvironment(roundsVariable: "CHIME_CUT_ROUNDS", rounds: 3)
    options.powerCut = true
    let dir = TemporaryDirectory(prefix: "chime-cut")
    let report = try await CrashRounds(options: options, directory: dir).run()
    print("power cuts: \(report.rounds) rounds in \(String(format: "%.1f", report.seconds)) s (seed \(options.seed)); "
      + "\(report.ackedAdds) adds and \(report.ackedRemoves) removals acknowledged, \(report.uncertain) in doubt; "
      + "the cuts took back \(report.cutRecords) writes (\(report.cutBytesRestored) bytes restored) "
      + "in \(report.cutRoundsActive) rounds with the shim active")
    #expect(report.failures.isEmpty, "\(report.failures.prefix(20).joined(separator: "\n"))")
    #expect(report.rounds == options.rounds)
    #expect(report.cutRoundsActive == options.rounds, "the write-cut shim did not see chimed's database writes")
    #expect(report.ackedAdds > options.rounds * 10, "the load did little")
  }

  /// The tool itself: writes after a file's last sync are taken back, those before it kept,
  /// whether they appended, overwrote in place or truncated.
  @Test func aCutTakesBackExactlyWhatFollowedTheLastSync() throws {
    let dir = TemporaryDirectory(prefix: "chime-cut")
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let cut = WriteCut(logDirectory: dir.file("undo"), dataDirectory: data)
    let file = data + "/chime.db"
    let other = data + "/other"
    let script = """
      printf AAAAAAAA > "$1" && sync --data "$1" && printf BBBB >> "$1" && printf XY | dd of="$1" bs=1 seek=2 conv=notrunc status=none \
      && truncate -s 3 "$1" && printf untracked > "$2"
      """
    let env = try cut.environment().compactMapValues { $0 }
    let run = try ChildProcess.run("/bin/sh", ["-c", script, "sh", file, other], environment: env)
    #expect(run.status == 0, "\(run.errors)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "AAX")
    #expect(cut.wasActive)
    let reverted = try cut.revert()
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "AAAAAAAA")
    #expect(try String(contentsOfFile: other, encoding: .utf8) == "untracked")
    #expect(reverted.files == 1)
    #expect(reverted.records == 4, "append, two one-byte overwrites, truncate")
    #expect(!cut.wasActive)
  }

  /// The shim writes a record before the change it describes: a SIGKILL while it wrote one
  /// (seen once in a parallel run) leaves a log ending inside a record whose change never
  /// happened. That tail is left out, header or bytes, and the whole records are kept.
  @Test func aRecordCutShortByTheKillIsLeftOut() throws {
    func word(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
    let whole = word(10) + word(4) + word(3) + [7, 8, 9]
    let next = word(12) + word(0) + word(5) + [1, 2, 3, 4, 5]
    for cut in [whole.count + 5, whole.count + 24, whole.count + 26] {
      let records = try WriteCut.records(Data(whole + next.prefix(cut - whole.count)), name: "x.undo")
      #expect(records.count == 1, "cut at \(cut)")
      #expect(records.first?.sizeBefore == 10)
      #expect(records.first?.offset == 4)
      #expect(records.first?.old == Data([7, 8, 9]))
    }
    #expect(try WriteCut.records(Data(whole + next), name: "x.undo").count == 2)
  }
}
