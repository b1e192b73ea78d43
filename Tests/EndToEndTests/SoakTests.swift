import ChimeTestSupport
import Foundation
import Testing

/// chimed under a steady mixed load keeps its resident memory and open descriptors flat and
/// answers every call (see `Soak`). `make soak MINUTES=10` runs it long (`CHIME_SOAK_SECONDS`);
/// `make test` runs 15 s of it.
@Suite(.scaledTimeLimit(by: "CHIME_SOAK_SECONDS", secondsEach: 1)) struct SoakTests {
  @Test func memoryAndDescriptorsStayFlatUnderMixedLoad() async throws {
    let environment = ProcessInfo.processInfo.environment
    var options = Soak.Options()
    options.seconds = environment["CHIME_SOAK_SECONDS"].flatMap(Double.init) ?? 15
    let report = try await Soak(options: options, directory: TemporaryDirectory(prefix: "chime-soak")).run()
    print("soak: \(Int(options.seconds)) s after \(String(format: "%.1f", report.setupSeconds)) s of setup, \(report.calls) calls (\(report.adds) adds, \(report.attachments) with an attachment), "
      + "\(report.eventsRead) events read (\(report.deliveriesSeen) deliveries), \(report.errors.count) errors; "
      + "after the warm-up RSS \(Soak.percent(report.rssGrowth)), descriptors \(Soak.percent(report.descriptorGrowth)); "
      + "samples: \(report.samples.map(\.description).joined(separator: ", "))")
    #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
    #expect(report.adds > Int(options.seconds) * 2, "the load did little: \(report.adds) adds")
    #expect(report.deliveriesSeen >= Int(options.seconds) / 2, "few fires reached the subscriber: \(report.deliveriesSeen)")
  }
}
