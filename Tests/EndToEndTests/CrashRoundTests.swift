import ChimeTestSupport
import Foundation
import Testing

/// chimed killed with SIGKILL under load, again and again: nothing acknowledged is lost or
/// delivered twice (see `CrashRounds`). `make test-crash ROUNDS=100` runs many rounds
/// (`CHIME_CRASH_ROUNDS`, `CHIME_CRASH_SEED`); `make test` runs a few.
@Suite(.scaledTimeLimit(by: "CHIME_CRASH_ROUNDS", secondsEach: 15)) struct CrashRoundTests {
  @Test func acknowledgedRequestsSurviveSigkillRounds() async throws {
    let options = CrashRounds.Options.fromEnvironment(roundsVariable: "CHIME_CRASH_ROUNDS", rounds: 5)
    let dir = TemporaryDirectory(prefix: "chime-crash")
    let report = try await CrashRounds(options: options, directory: dir).run()
    print("crash rounds: \(report.rounds) rounds in \(String(format: "%.1f", report.seconds)) s (seed \(options.seed)); "
      + "\(report.ackedAdds) adds and \(report.ackedRemoves) removals acknowledged, \(report.uncertain) in doubt at a kill, "
      + "\(report.deliveries) deliveries (\(report.missedDeliveries) missed), \(report.attachmentsStored) attachments stored")
    #expect(report.failures.isEmpty, "\(report.failures.prefix(20).joined(separator: "\n"))")
    #expect(report.rounds == options.rounds)
    #expect(report.ackedAdds > options.rounds * 10, "the load did little")
    #expect(report.deliveries > options.rounds, "few fires during the rounds")
  }
}
