import ChimeConfig
import ChimeCore
import Testing

/// Each setting is declared once (`ChimedSettings`): the flags, the file's keys, `--help` and
/// `--print-config` list exactly the declared keys, and the defaults the server starts with
/// are the declarations' (the end-to-end twin, `ChimedSettingsEndToEndTests`, checks the real
/// chimed and its man page).
@Suite struct ChimedSettingsTests {
  static let declared = ConfigKey.all.map(\.name)

  @Test func namesAreUniqueAndKebabCase() {
    #expect(Set(Self.declared).count == Self.declared.count)
    for name in Self.declared {
      #expect(name.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }, "\(name)")
    }
  }

  /// The keys `--help` lists, the setting flags it lists, and the keys `--print-config` prints
  /// are the declared ones, in their order, and no others.
  @Test func helpAndPrintConfigListExactlyTheDeclaredKeys() throws {
    let help = ChimedCommandLine.help
    #expect(Self.helpKeys(help) == Self.declared)
    let ownOptions: Set = ["config", "print-config", "compact-store", "version", "help"]
    #expect(Self.helpOptions(help).filter { !ownOptions.contains($0) } == Self.declared)
    let printed = try ChimedConfig.resolve(flags: [:], file: nil, environment: [:], home: "/home/u", uid: 1000).printed()
    #expect(Self.printedKeys(printed) == Self.declared)
    // Every key of the file is a flag and back.
    for name in Self.declared {
      #expect(ChimedOption.named(name)?.kind == .setting, "\(name)")
    }
    #expect(ChimedOption.all.filter { $0.kind == .setting }.map(\.name) == Self.declared)
  }

  /// A key's help says its default, from the declaration: "(default: 1024)".
  @Test func helpStatesEachDefaultFromTheDeclaration() {
    for key in ConfigKey.all {
      let option = ChimedOption.named(key.name)
      #expect(option?.help == key.helpText, "\(key.name)")
      if let text = key.defaultText {
        #expect(key.helpText.contains("(default: \(text)"), "\(key.name): \(key.helpText)")
      }
      #expect(key.helpText.contains("reloads on SIGHUP") == key.reloadable, "\(key.name)")
    }
    #expect(ChimedSettings.maxSubscribersPerApp.key.helpText.hasSuffix("(default: 1024)."))
  }

  /// What the landing types start with is what resolving no file, flag or environment gives:
  /// one default per setting, read from its declaration by both.
  @Test func theServerDefaultsAreTheDeclarations() throws {
    let resolved = try ChimedConfig.resolve(flags: [:], file: nil, environment: [:], home: "/home/u", uid: 1000).settings
    var fresh = ServerSettings(paths: resolved.paths)
    fresh.limits = ServerLimits()
    #expect(resolved == fresh)
    #expect(resolved.limits == ServerLimits() && resolved.policy == ServerPolicy() && resolved.presentation == PresentationSettings())
    #expect(ServerLimits().maxSubscribersPerApp == 1024 && ServerLimits().missedGraceMillis == 2_000)
    #expect(ServerLimits().attachmentQuotaBytes == Limits.attachmentQuotaDefault)
  }

  /// Each value lands where its declaration says: set every key to a value other than its
  /// default and every landing field changes.
  @Test func everyKeyLandsInTheServerSettings() throws {
    let given: [String: String] = [
      "socket": "/s.sock", "data-dir": "/d", "apps-dir": "/a", "attachment-quota": "1GB", "max-pending-per-app": "5",
      "max-connections": "6", "max-calls-per-connection": "7", "max-subscribers": "8", "max-subscribers-per-app": "9",
      "thumbnail-box": "10x20", "thumbnailer": "/t", "log-level": "debug", "max-frame-bytes": "11", "missed-grace": "12",
      "extension-timeout": "13", "push-payload-limit": "14", "service-extension-timeout": "15",
      "service-extension-grace": "16", "authorization": "ask-denies", "presenter": "command", "present-command": "/p",
      "present-timeout": "17", "sound-player": "none", "event-retention": "18", "calendar-missed-grace": "19",
      "authorization-prompt-wait": "21",
    ]
    #expect(Set(given.keys) == Set(Self.declared), "the test gives every key")
    let settings = try ChimedConfig.resolve(flags: given, file: nil, environment: [:], home: "/home/u", uid: 1000).settings
    var expected = ServerSettings(paths: ServerPaths(socketPath: "/s.sock", dataDirectory: "/d", appsDirectory: "/a", thumbnailer: "/t"))
    expected.limits.attachmentQuotaBytes = 1_000_000_000
    expected.limits.maxPendingPerApp = 5
    expected.limits.maxConnections = 6
    expected.limits.maxCallsPerConnection = 7
    expected.limits.maxSubscribers = 8
    expected.limits.maxSubscribersPerApp = 9
    expected.policy.thumbnailBox = ThumbnailBox(width: 10, height: 20)
    expected.logLevel = "debug"
    expected.limits.maxFrameBytes = 11
    expected.limits.missedGraceMillis = 12_000
    expected.limits.extensionAnswerTimeoutMillis = 13_000
    expected.limits.pushPayloadMaxBytes = 14
    expected.limits.serviceExtensionTimeoutMillis = 15_000
    expected.limits.serviceExtensionGraceMillis = 16_000
    expected.policy.authorization = .askDenies
    expected.presentation.presenter = "command"
    expected.presentation.command = "/p"
    expected.presentation.commandTimeoutMillis = 17_000
    expected.presentation.soundPlayer = "none"
    expected.limits.eventRetention = 18
    expected.limits.calendarMissedGraceMillis = 19_000
    expected.limits.authorizationPromptWaitMillis = 21_000
    #expect(settings == expected)
  }

  // What the listings hold, read back the way a person reads them.

  /// The labels of `--help`'s "Configuration keys:" list, without their type.
  static func helpKeys(_ help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "Configuration keys:") else { return [] }
    return lines[(start + 1)...].prefix { !$0.isEmpty }
      .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
      .map { String($0.dropFirst(2).prefix { $0 != " " }) }
  }

  /// The long options `--help` lists under OPTIONS, without dashes.
  static func helpOptions(_ help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
    return lines[(start + 1)...].filter { $0.hasPrefix("  -") }.compactMap { line in
      let label = line.dropFirst(2).split(separator: " ").first { $0.hasPrefix("--") }
      return label.map { String($0.dropFirst(2)) }
    }
  }

  /// The keys `--print-config` prints, set or commented out as unset.
  static func printedKeys(_ printed: String) -> [String] {
    printed.split(separator: "\n").dropFirst().map { line in
      String(line.drop { $0 == "#" || $0 == " " }.prefix { $0 != " " })
    }
  }
}
