import ChimeConfig
import ChimeCore
import Testing

@Suite struct ConfigFileTests {
  static let full = """
    # every key
    socket = "/run/user/1000/chime/x.sock"
    data-dir = "/srv/chime"
    apps-dir = "/srv/apps"
    attachment-quota = "1.5GB"
    max-pending-per-app = 50
    max-connections = 300
    max-calls-per-connection = 40
    max-subscribers = 90
    max-subscribers-per-app = 30
    thumbnail-box = "200x100"
    thumbnailer = "/opt/chime/chime-thumbnail"
    log-level = "debug"
    max-frame-bytes = 65536
    missed-grace = 7.5
    calendar-missed-grace = 1800
    extension-timeout = 3
    push-payload-limit = 5120
    service-extension-timeout = 20
    service-extension-grace = 0.5
    authorization = "ask-denies"
    authorization-prompt-wait = 25
    presenter = "command"
    present-command = "/usr/bin/notify-hook"
    present-timeout = 4
    sound-player = "none"
    event-retention = 123
    """

  func resolve(_ text: String, flags: [String: String] = [:], environment: [String: String] = [:]) throws -> ChimedConfig {
    let file = try ConfigFile.parse(text, path: "/c/chimed.toml")
    return try ChimedConfig.resolve(flags: flags, file: file, environment: environment, home: "/home/u", uid: 1000)
  }

  func error(_ text: String, flags: [String: String] = [:], environment: [String: String] = [:]) -> String? {
    do {
      _ = try resolve(text, flags: flags, environment: environment)
      return nil
    } catch let error as ConfigError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  @Test func everyKeyIsReadWithItsLine() throws {
    let config = try resolve(Self.full)
    #expect(config.settings.paths.socketPath == "/run/user/1000/chime/x.sock")
    #expect(config.settings.paths.dataDirectory == "/srv/chime")
    #expect(config.settings.paths.appsDirectory == "/srv/apps")
    #expect(config.settings.limits.attachmentQuotaBytes == 1_500_000_000)
    #expect(config.settings.limits.maxPendingPerApp == 50)
    #expect(config.settings.limits.maxConnections == 300)
    #expect(config.settings.limits.maxCallsPerConnection == 40)
    #expect(config.settings.limits.maxSubscribers == 90)
    #expect(config.settings.limits.maxSubscribersPerApp == 30)
    #expect(config.settings.policy.thumbnailBox == (try ThumbnailBox(parsing: "200x100")))
    #expect(config.settings.paths.thumbnailer == "/opt/chime/chime-thumbnail")
    #expect(config.settings.logLevel == "debug")
    #expect(config.settings.limits.maxFrameBytes == 65536)
    #expect(config.settings.limits.missedGraceMillis == 7500)
    #expect(config.settings.limits.extensionAnswerTimeoutMillis == 3000)
    #expect(config.settings.limits.pushPayloadMaxBytes == 5120)
    #expect(config.settings.limits.serviceExtensionTimeoutMillis == 20000)
    #expect(config.settings.limits.serviceExtensionGraceMillis == 500)
    #expect(config.settings.policy.authorization == .askDenies)
    #expect(config.settings.limits.authorizationPromptWaitMillis == 25_000)
    #expect(config.settings.presentation.presenter == "command")
    #expect(config.settings.presentation.command == "/usr/bin/notify-hook")
    #expect(config.settings.presentation.commandTimeoutMillis == 4000)
    #expect(config.settings.presentation.soundPlayer == "none")
    #expect(config.settings.limits.eventRetention == 123)
    // Line 1 is the comment: key N of ConfigKey.all is on line N + 1.
    for (index, key) in ConfigKey.all.enumerated() {
      #expect(config.values[key.name]?.source == .file(path: "/c/chimed.toml", line: index + 2), "\(key.name)")
    }
  }

  @Test func defaultsWithoutFile() throws {
    let config = try ChimedConfig.resolve(flags: [:], file: nil, environment: [:], home: "/home/u", uid: 1000)
    #expect(config.settings.paths.socketPath == "/tmp/chime-1000/chimed.sock")
    #expect(config.settings.paths.dataDirectory == "/home/u/.local/state/chime")
    #expect(config.settings.paths.appsDirectory == "/home/u/.local/share/chime/apps")
    #expect(config.settings.limits.attachmentQuotaBytes == 100_000_000)
    #expect(config.settings.limits.maxPendingPerApp == Limits.pendingPerAppDefault)
    #expect(config.settings.limits.maxSubscribers == 4096 && config.settings.limits.maxSubscribersPerApp == 1024)
    #expect(config.settings.limits.maxFrameBytes == Limits.maxFrameBytesDefault)
    #expect(config.settings.policy.thumbnailBox == ThumbnailBox.default)
    #expect(config.settings.paths.thumbnailer == nil, "looked for beside chimed")
    #expect(config.settings.logLevel == "info")
    #expect(config.settings.limits.missedGraceMillis == 2000)
    #expect(config.settings.policy.authorization == .allow)
    #expect(config.settings.presentation.presenter == nil && config.settings.presentation.command == nil && config.settings.presentation.soundPlayer == nil)
    #expect(ConfigKey.all.allSatisfy { config.values[$0.name]?.source == .defaultValue })
  }

  @Test func precedenceFlagOverEnvironmentOverFileOverDefault() throws {
    let text = "socket = \"/file.sock\"\nmissed-grace = 9\ndata-dir = \"/file/data\"\n"
    let environment = ["CHIME_SOCKET": "/env.sock", "XDG_STATE_HOME": "/xdg/state", "XDG_RUNTIME_DIR": "/run/user/1000"]
    let envWins = try resolve(text, environment: environment)
    #expect(envWins.settings.paths.socketPath == "/env.sock")
    #expect(envWins.values["socket"]?.source == .environment("CHIME_SOCKET"))
    // XDG base directories only move the defaults: the file's data-dir is more specific.
    #expect(envWins.settings.paths.dataDirectory == "/file/data")
    #expect(envWins.values["data-dir"]?.source == .file(path: "/c/chimed.toml", line: 3))
    #expect(envWins.settings.limits.missedGraceMillis == 9000)
    let flagWins = try resolve(text, flags: ["socket": "/flag.sock", "missed-grace": "1"], environment: environment)
    #expect(flagWins.settings.paths.socketPath == "/flag.sock")
    #expect(flagWins.values["socket"]?.source == .flag)
    #expect(flagWins.settings.limits.missedGraceMillis == 1000)
    #expect(flagWins.values["missed-grace"]?.source == .flag)
    let derived = try resolve("", environment: environment)
    #expect(derived.settings.paths.dataDirectory == "/xdg/state/chime")
    #expect(derived.values["data-dir"]?.source == .derivedDefault(variable: "XDG_STATE_HOME"))
    #expect(derived.values["missed-grace"]?.source == .defaultValue)
  }

  @Test func syntaxErrorNamesTheLine() {
    let message = error("log-level = \"debug\"\nmissed-grace = = 3\n")
    #expect(message?.hasPrefix("/c/chimed.toml:2:") == true, "\(message ?? "")")
  }

  @Test func unknownKeyNamesKeyAndLine() {
    let message = error("log-level = \"debug\"\n\nmised-grace = 3\n")
    #expect(message?.hasPrefix("/c/chimed.toml:3: mised-grace: unknown key") == true, "\(message ?? "")")
    let table = error("log-level = \"debug\"\n[presenters]\nx = 1\n")
    #expect(table?.hasPrefix("/c/chimed.toml:2: presenters: unknown key") == true, "\(table ?? "")")
  }

  @Test func wrongTypeNamesKeyAndLine() {
    #expect(error("\nmissed-grace = \"soon\"\n") == "/c/chimed.toml:2: missed-grace: expected a number of seconds, got string")
    #expect(error("max-pending-per-app = 1.5\n") == "/c/chimed.toml:1: max-pending-per-app: expected an integer, got floating-point number")
    #expect(error("log-level = 3\n") == "/c/chimed.toml:1: log-level: expected a string, got integer")
    #expect(error("attachment-quota = true\n")?.hasPrefix("/c/chimed.toml:1: attachment-quota: expected a size") == true)
  }

  @Test func everyTOMLTypeIsNamedWhenWrong() {
    #expect(error("log-level = [\"debug\"]\n") == "/c/chimed.toml:1: log-level: expected a string, got array")
    #expect(error("log-level = { level = \"debug\" }\n") == "/c/chimed.toml:1: log-level: expected a string, got table")
    #expect(error("\nlog-level.x = 1\n") == "/c/chimed.toml:2: log-level: expected a string, got table")
    #expect(error("[missed-grace]\nseconds = 3\n") == "/c/chimed.toml:1: missed-grace: expected a number of seconds, got table")
    #expect(error("missed-grace = 1979-05-27T07:32:00Z\n") == "/c/chimed.toml:1: missed-grace: expected a number of seconds, got date-time")
    #expect(error("missed-grace = 07:32:00\n") == "/c/chimed.toml:1: missed-grace: expected a number of seconds, got time")
    #expect(error("max-connections = 1979-05-27\n") == "/c/chimed.toml:1: max-connections: expected an integer, got date")
    #expect(error("max-connections = true\n") == "/c/chimed.toml:1: max-connections: expected an integer, got bool")
    #expect(error("[[socket]]\n") == "/c/chimed.toml:1: socket: expected a string, got array")
  }

  @Test func valuesInEveryTOMLForm() throws {
    let config = try resolve("""
      'log-level' = '''warning'''
      "max-connections" = 0x40
      max-subscribers = 1_000
      missed-grace = 2.5e1
      extension-timeout = +7
      attachment-quota = 2_000_000
      present-command = \"\"\"
      /usr/bin/hook \\
        --flag\"\"\"\r\n
      """)
    #expect(config.settings.logLevel == "warning" && config.settings.limits.maxConnections == 64 && config.settings.limits.maxSubscribers == 1000)
    #expect(config.settings.limits.missedGraceMillis == 25000 && config.settings.limits.extensionAnswerTimeoutMillis == 7000)
    #expect(config.settings.limits.attachmentQuotaBytes == 2_000_000)
    #expect(config.settings.presentation.command == "/usr/bin/hook --flag")
    #expect(config.values["present-command"]?.source == .file(path: "/c/chimed.toml", line: 7))
    // A file saved with a byte order mark (Notepad) reads as without it.
    #expect(try resolve("\u{FEFF}log-level = \"debug\"\r\n").settings.logLevel == "debug")
  }

  @Test func duplicateKeysAreRefusedWithBothLines() {
    #expect(error("log-level = \"debug\"\n\nlog-level = \"info\"\n") == "/c/chimed.toml:3: log-level: duplicate key (first on line 1) (column 1)")
    #expect(error("missed-grace = 1\n\"missed-grace\" = 2\n")?.hasPrefix("/c/chimed.toml:2: missed-grace: duplicate key (first on line 1)") == true)
  }

  @Test func syntaxErrorsSayWhatAndWhere() {
    #expect(error("log-level = \"debug\"\nmissed-grace = = 3\n") == "/c/chimed.toml:2: expected a value, found '=' (column 16)")
    #expect(error("log-level = \"debug\n") == "/c/chimed.toml:1: unterminated string (no closing '\"' on its line; use \"\"\" for a multi-line string) (column 13)")
    #expect(error("max-connections = 0123\n") == "/c/chimed.toml:1: invalid number 0123: leading zeros are not allowed (column 19)")
    #expect(error("[a]\n[a]\n") == "/c/chimed.toml:2: a: table defined twice (first on line 1) (column 1)")
  }

  @Test func badValuesNameKeyAndLine() throws {
    #expect(error("\n\nlog-level = \"loud\"\n")?.hasPrefix("/c/chimed.toml:3: log-level: unknown log level \"loud\"") == true)
    #expect(error("attachment-quota = \"lots\"\n") == "/c/chimed.toml:1: attachment-quota: \"lots\" is not a size such as 100MB or 5000000")
    #expect(error("max-pending-per-app = 0\n") == "/c/chimed.toml:1: max-pending-per-app: must be at least 1, got 0")
    #expect(error("missed-grace = -1\n") == "/c/chimed.toml:1: missed-grace: must not be negative, got -1")
    #expect(error("present-timeout = 0\n") == "/c/chimed.toml:1: present-timeout: must be more than 0 seconds, got 0")
    // chimed counts seconds in milliseconds in an Int64: a longer time is refused, not a trap.
    #expect(error("missed-grace = 1e300\n") == "/c/chimed.toml:1: missed-grace: must be at most 1000000000 seconds, got 1e+300")
    #expect(error("", flags: ["present-timeout": "1e16"]) == "--present-timeout: must be at most 1000000000 seconds, got 1e16")
    for key in ["missed-grace", "extension-timeout", "service-extension-timeout", "service-extension-grace", "present-timeout"] {
      #expect(error("", flags: [key: "1000000000.5"]) == "--\(key): must be at most 1000000000 seconds, got 1000000000.5")
      #expect(try resolve("\(key) = 1_000_000_000\n").values[key]?.text == "1000000000")
    }
    #expect(error("authorization = \"maybe\"\n") == "/c/chimed.toml:1: authorization: \"maybe\" is not allow, ask or ask-denies")
    #expect(error("thumbnail-box = \"big\"\n")?.hasPrefix("/c/chimed.toml:1: thumbnail-box:") == true)
    #expect(error("presenter = \"telegraph\"\n")?.hasPrefix("/c/chimed.toml:1: presenter:") == true)
    #expect(error("data-dir = \"\"\n") == "/c/chimed.toml:1: data-dir: must not be empty")
    // A bad flag names the flag; the file's good value does not hide it.
    #expect(error("missed-grace = 3\n", flags: ["missed-grace": "x"]) == "--missed-grace: \"x\" is not a number of seconds")
  }

  @Test func keyLineSkipsMultilineStrings() throws {
    let text = "present-command = \"\"\"\nlog-level = fake\n\"\"\"\nlog-level = \"warning\"\n"
    let config = try resolve(text)
    #expect(config.settings.logLevel == "warning")
    #expect(config.values["log-level"]?.source == .file(path: "/c/chimed.toml", line: 4))
  }

  @Test func quotedKeysAreFound() throws {
    let config = try resolve("\"missed-grace\" = 4\n")
    #expect(config.values["missed-grace"]?.source == .file(path: "/c/chimed.toml", line: 1))
  }

  @Test func printedConfigNamesSourcesAndParsesBack() throws {
    let config = try resolve("missed-grace = 4\npresenter = \"none\"\n", flags: ["log-level": "debug"],
                             environment: ["CHIME_SOCKET": "/e.sock"])
    let printed = config.printed()
    #expect(printed.contains("missed-grace = 4  # file:1\n"))
    #expect(printed.contains("presenter = \"none\"  # file:2\n"))
    #expect(printed.contains("log-level = \"debug\"  # flag, reloads on SIGHUP\n"))
    #expect(printed.contains("socket = \"/e.sock\"  # env CHIME_SOCKET\n"))
    #expect(printed.contains("attachment-quota = \"100MB\"  # default\n"))
    #expect(printed.contains("# present-command (unset)  # default\n"))
    // What it prints is a valid chimed.toml that gives the same settings.
    let again = try resolve(printed)
    #expect(again.settings.limits.missedGraceMillis == 4000 && again.settings.logLevel == "debug" && again.settings.paths.socketPath == "/e.sock")
    #expect(again.settings.limits.attachmentQuotaBytes == config.settings.limits.attachmentQuotaBytes)
  }

  @Test func reloadChangesAreListed() throws {
    let before = try resolve("log-level = \"info\"\nmissed-grace = 2\n")
    let after = try resolve("log-level = \"debug\"\nmissed-grace = 5\n")
    #expect(after.reloadableChanges(from: before) == ["log-level: info → debug"])
    #expect(after.restartOnlyChanges(from: before) == ["missed-grace"])
  }

  @Test func defaultPathFollowsXDGConfigHome() {
    #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x"], home: "/h") == "/x/chime/chimed.toml")
    #expect(ConfigFile.defaultPath(environment: [:], home: "/h") == "/h/.config/chime/chimed.toml")
  }

  @Test func missingFiles() throws {
    #expect(try ConfigFile.load(path: "/nonexistent/chimed.toml", required: false) == nil)
    #expect(throws: ConfigError.self) { try ConfigFile.load(path: "/nonexistent/chimed.toml", required: true) }
    // A file where a directory on the way should be (~/.config/chime a file): no chimed.toml
    // there either.
    #expect(try ConfigFile.load(path: "/dev/null/chimed.toml", required: false) == nil)
    #expect(throws: ConfigError.self) { try ConfigFile.load(path: "/dev/null/chimed.toml", required: true) }
    // What is there but cannot be read is an error, not a missing file.
    #expect(throws: ConfigError.self) { try ConfigFile.load(path: "/", required: false) }
  }
}
