import ChimeConfig
import ChimeTestSupport
import Foundation
import Testing

/// The real chimed's `--help`, `--print-config` and man page (help2man's, as `make man` and
/// `make install` make it) list every declared setting (`ChimedSettings.all`) and no other.
@Suite(.testTimeLimit) struct ChimedSettingsEndToEndTests {
  static var chimed: String { DaemonProcess.binDirectory + "/chimed" }
  static let declared = ConfigKey.all.map(\.name)
  /// chimed's options that are not settings.
  static let ownOptions: Set = ["config", "print-config", "compact-store", "version", "help"]

  @Test func helpAndPrintConfigListEveryDeclaredKeyAndNoOther() throws {
    let help = try ChildProcess.run(Self.chimed, ["--help"])
    #expect(help.status == 0)
    #expect(help.output == ChimedCommandLine.help)
    let dir = TemporaryDirectory()
    let printed = try ChildProcess.run(Self.chimed, ["--print-config"], environment: ["XDG_CONFIG_HOME": dir.file("config")])
    #expect(printed.status == 0, "\(printed.errors)")
    let keys = printed.output.split(separator: "\n").dropFirst().map { line in
      String(line.drop { $0 == "#" || $0 == " " }.prefix { $0 != " " })
    }
    #expect(keys == Self.declared)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/help2man"),
                 "needs help2man (scripts/install-deps.sh installs it)"))
  func manPageListsEveryDeclaredKeyAndNoOther() throws {
    let dir = TemporaryDirectory()
    let page = dir.file("chimed.1")
    let run = try ChildProcess.run("/usr/bin/help2man", ["--no-info", "-N", "-s", "1", "--version-string", "chimed 0",
                                                         "-o", page, Self.chimed])
    #expect(run.status == 0, "\(run.errors)")
    let lines = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(Self.tagged(lines, section: ".SS \"Configuration keys:\"").map { String($0.prefix { $0 != " " }) } == Self.declared)
    let options = Self.tagged(lines, section: ".SS \"OPTIONS:\"").compactMap { label in
      label.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
    }
    #expect(options.filter { !Self.ownOptions.contains($0) } == Self.declared)
    #expect(Set(options).subtracting(Self.declared) == Self.ownOptions)
  }

  /// The labels of a man page section's tagged paragraphs (the line after each `.TP`).
  static func tagged(_ lines: [String], section: String) -> [String] {
    guard let start = lines.firstIndex(of: section) else { return [] }
    let body = lines[(start + 1)...].prefix { !$0.hasPrefix(".SS") && !$0.hasPrefix(".SH") }
    return zip(body, body.dropFirst()).filter { $0.0 == ".TP" }.map(\.1)
  }
}
