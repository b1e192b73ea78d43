import ChimeConfig
import Foundation
import Testing

/// chimed's command line: each form of option, and each way a command line is refused (what
/// chimed prints before exiting 64).
@Suite struct ChimedCommandLineTests {
  func run(_ arguments: [String]) throws -> ChimedArguments {
    guard case .run(let parsed) = try ChimedCommandLine.parse(arguments) else {
      Issue.record("\(arguments) did not parse to a run")
      return ChimedArguments()
    }
    return parsed
  }

  func refusal(_ arguments: [String]) -> UsageError? {
    do throws(UsageError) {
      _ = try ChimedCommandLine.parse(arguments)
      return nil
    } catch {
      return error
    }
  }

  @Test func noArgumentsRunsWithTheDefaults() throws {
    let parsed = try run([])
    #expect(parsed == ChimedArguments())
    #expect(parsed.configPath == nil && !parsed.printConfig && !parsed.compactStore && parsed.settings.isEmpty)
    #expect(parsed.thumbnailTimeout == 10 && parsed.clockOffset == 0 && parsed.procRoot == "/proc" && parsed.fileLaneWidth == 2)
  }

  @Test func everySettingIsAFlagOfItsName() throws {
    for key in ConfigKey.all {
      #expect(try run(["--\(key.name)", "v1"]).settings == [key.name: "v1"], "\(key.name)")
      #expect(try run(["--\(key.name)=v2"]).settings == [key.name: "v2"], "\(key.name)")
    }
  }

  @Test func valuesSeparateOrAfterEquals() throws {
    let parsed = try run(["--config", "/c.toml", "--print-config", "--socket=/s.sock", "--log-level", "debug",
                          "--compact-store", "--present-command=/bin/hook --x=1", "--clock-offset=-86400",
                          "--thumbnail-timeout", "0.5", "--proc-root=/fake/proc", "--file-lane-width", "4"])
    #expect(parsed.configPath == "/c.toml" && parsed.printConfig && parsed.compactStore)
    #expect(parsed.settings == ["socket": "/s.sock", "log-level": "debug", "present-command": "/bin/hook --x=1"])
    #expect(parsed.clockOffset == -86400 && parsed.thumbnailTimeout == 0.5 && parsed.procRoot == "/fake/proc" && parsed.fileLaneWidth == 4)
    // The last of a repeated option wins; an empty value given apart is a value.
    #expect(try run(["--log-level=debug", "--log-level", "info"]).settings == ["log-level": "info"])
    #expect(try run(["--presenter", ""]).settings == ["presenter": ""])
    #expect(try run(["--sound-player", "-"]).settings == ["sound-player": "-"], "a lone dash is a value")
  }

  @Test func helpAndVersionWinOverEverythingElse() throws {
    #expect(try ChimedCommandLine.parse(["--help"]) == .help)
    #expect(try ChimedCommandLine.parse(["-h"]) == .help)
    #expect(try ChimedCommandLine.parse(["--bogus", "--help"]) == .help)
    #expect(try ChimedCommandLine.parse(["--version"]) == .version)
    #expect(try ChimedCommandLine.parse(["--socket", "x", "--version"]) == .version)
    #expect(refusal(["--", "--help"])?.message == "Unexpected argument '--help'")
  }

  @Test func usageErrors() throws {
    #expect(refusal(["--bogus"])?.message == "Unknown option '--bogus'")
    #expect(refusal(["--bogus=1"])?.message == "Unknown option '--bogus'")
    #expect(refusal(["-x"])?.message == "Unknown option '-x'")
    #expect(refusal(["--Socket", "x"])?.message == "Unknown option '--Socket'. Did you mean '--socket'?")
    #expect(refusal(["--log-levl", "debug"])?.message == "Unknown option '--log-levl'. Did you mean '--log-level'?")
    #expect(refusal(["--clock-offst=1"])?.message == "Unknown option '--clock-offst'", "hidden options are not suggested")
    #expect(refusal(["extra"])?.message == "Unexpected argument 'extra'")
    #expect(refusal(["help"])?.message == "Unexpected argument 'help'")
    #expect(refusal(["--print-config=yes"])?.message == "The option '--print-config' does not take any value, but 'yes' was specified.")
    #expect(refusal(["--thumbnail-timeout", "abc"])?.message == "The value 'abc' is invalid for '--thumbnail-timeout'")
    #expect(refusal(["--file-lane-width=1.5"])?.message == "The value '1.5' is invalid for '--file-lane-width'")
    // chimed counts these seconds in milliseconds in an Int64: NaN, infinity and times past
    // ConfigKey.maximumSeconds are refused, not a trap at start.
    for value in ["nan", "inf", "-inf", "1e300", "-1e300", "1000000000.5"] {
      #expect(refusal(["--clock-offset=\(value)"])?.message == "The value '\(value)' is invalid for '--clock-offset'")
      #expect(refusal(["--thumbnail-timeout=\(value)"])?.message == "The value '\(value)' is invalid for '--thumbnail-timeout'")
    }
    #expect(try run(["--clock-offset=-1000000000", "--thumbnail-timeout=1e9"]).clockOffset == -1e9)
    // A value that looks like an option is not taken as one.
    #expect(refusal(["--clock-offset", "-5"])?.message == "Missing value for '--clock-offset'")
    let missing = refusal(["--socket", "--print-config"])
    #expect(missing?.message == "Missing value for '--socket <socket>'")
    #expect(missing?.text == """
      Error: Missing value for '--socket <socket>'
      Help:  --socket <socket>  Unix socket path (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock).
      Usage: chimed <options>
        See 'chimed --help' for more information.

      """)
    #expect(refusal(["--socket="])?.message == "Missing value for '--socket <socket>'")
    #expect(refusal(["--config"])?.message == "Missing value for '--config <config>'")
    #expect(refusal(["--bogus"])?.text == "Error: Unknown option '--bogus'\nUsage: chimed <options>\n  See 'chimed --help' for more information.\n")
    #expect(UsageError.exitStatus == 64)
  }

  @Test func helpListsEveryOptionButTheHiddenOnes() {
    let help = ChimedCommandLine.help
    #expect(help.hasPrefix("OVERVIEW: The Chime notification scheduler daemon.\n\n"))
    #expect(help.contains("\nUSAGE: chimed <options>\n\nOPTIONS:\n  --config <config>       The configuration file"))
    for option in ChimedOption.all {
      #expect(help.contains("\n  \(option.label)") == (option.help != nil), "\(option.name)")
    }
    for key in ConfigKey.all {
      #expect(ChimedOption.named(key.name)?.kind == .setting, "\(key.name) is a flag")
      #expect(help.contains("\n  \(key.name) (\(key.kind.tomlName))"), "\(key.name) in the key list")
    }
    #expect(help.hasSuffix("  --version               Show the version.\n  -h, --help              Show help information.\n\n"))
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= ChimedCommandLine.width }, "\(lines.filter { $0.count > 80 })")
    // Keys, examples and options are two columns, two spaces apart at least (help2man makes
    // tagged paragraphs of them); a label too long for its column stands on its own line.
    #expect(help.contains("  --max-pending-per-app <max-pending-per-app>\n                          Pending requests"))
    #expect(help.contains("  --log-level <log-level>\n                          trace, debug, info"))
    // The key list gives each key's type and default; what a key does is its flag's help.
    #expect(help.contains("\n  socket (string)         default: $CHIME_SOCKET, else\n                          $XDG_RUNTIME_DIR/chime/chimed.sock\n"))
    #expect(help.contains("\n  attachment-quota (size)\n                          default: 100MB\n"))
    #expect(help.contains("\n  log-level (string)      default: info; reloads on SIGHUP\n"))
    #expect(help.contains("\nExample chimed.toml:\n  log-level = \"debug\"     more detail in the log\n"))
    #expect(help.contains("\nExamples:\n  chimed                  serve"))
    for line in lines where line.hasPrefix("  ") && !line.hasPrefix("   ") && line.count > 26 {
      let characters = Array(line)
      if characters[24] == " " && characters[25] != " " { #expect(characters[23] == " ", "one space between label and text: \(line)") }
    }
  }

  /// `--help` is what Tests/Fixtures/help/chimed.txt holds (help2man makes the man page of it):
  /// a change to it is made on purpose, with the file (`chimed --help > Tests/Fixtures/help/chimed.txt`).
  @Test func helpIsTheRecordedText() throws {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }  // this file, ChimeConfigTests
    let recorded = try String(contentsOf: url.appendingPathComponent("Fixtures/help/chimed.txt"), encoding: .utf8)
    #expect(ChimedCommandLine.help == recorded)
  }
}
