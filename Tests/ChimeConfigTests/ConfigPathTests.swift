import ChimeConfig
import Testing

/// Path settings: `~` and `~/` expand with `$HOME`, everything else must be absolute, and the
/// refusal names the key and where it was given, in the file and on the command line.
@Suite struct ConfigPathTests {
  @Test func tildeExpandsWithHome() throws {
    #expect(try ConfigPath.resolve("~/chime-data", home: "/home/u") == "/home/u/chime-data")
    #expect(try ConfigPath.resolve("~", home: "/home/u") == "/home/u")
    #expect(try ConfigPath.resolve("~/", home: "/home/u/") == "/home/u/")
    #expect(try ConfigPath.resolve("~/x", home: "/") == "/x")
    #expect(try ConfigPath.resolve("/srv/chime", home: nil) == "/srv/chime")
  }

  @Test func everyOtherPathIsRefused() {
    for (text, home, says) in [("chime-data", "/home/u", "is not an absolute path"),
                               ("./chime-data", "/home/u", "is not an absolute path"),
                               ("$HOME/x", "/home/u", "is not an absolute path"),
                               ("~bob/x", "/home/u", "~name/ (another user's home) is not expanded"),
                               ("~/x", nil, "HOME is not set"),
                               ("~", "", "HOME is not set"),
                               ("~/x", "home/u", "HOME (\"home/u\") is not an absolute path")] {
      #expect(throws: ConfigPath.Refusal.self, "\(text)") { try ConfigPath.resolve(text, home: home) }
      do {
        _ = try ConfigPath.resolve(text, home: home)
      } catch {
        #expect(error.message.contains(says), "\(text): \(error.message)")
      }
    }
  }

  func resolve(_ toml: String, flags: [String: String] = [:], environment: [String: String]) throws(ConfigError) -> ChimedConfig {
    let file: ConfigFile
    do { file = try ConfigFile.parse(toml, path: "/c/chimed.toml") } catch { throw error }
    return try ChimedConfig.resolve(flags: flags, file: file, environment: environment, home: "/home/account", uid: 1000)
  }

  @Test func theSettingsAndPrintConfigShowTheExpandedPath() throws {
    let config = try resolve("data-dir = \"~/chime-data\"\napps-dir = \"~\"\nthumbnailer = \"~/bin/chime-thumbnail\"\n",
                             flags: ["socket": "~/chimed.sock"], environment: ["HOME": "/home/u"])
    #expect(config.settings.paths.dataDirectory == "/home/u/chime-data")
    #expect(config.settings.paths.appsDirectory == "/home/u")
    #expect(config.settings.paths.thumbnailer == "/home/u/bin/chime-thumbnail")
    #expect(config.settings.paths.socketPath == "/home/u/chimed.sock")
    #expect(config.printed().contains("data-dir = \"/home/u/chime-data\"  # file:1\n"), "\(config.printed())")
  }

  @Test func aRelativePathIsRefusedNamingTheKeyAndWhere() {
    func message(_ toml: String, flags: [String: String] = [:], environment: [String: String] = ["HOME": "/home/u"]) -> String? {
      do {
        _ = try resolve(toml, flags: flags, environment: environment)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(message("log-level = \"info\"\ndata-dir = \"chime-data\"\n")?
      .hasPrefix("/c/chimed.toml:2: data-dir: \"chime-data\" is not an absolute path") == true)
    #expect(message("socket = \"run/chimed.sock\"\n")?.hasPrefix("/c/chimed.toml:1: socket: ") == true)
    #expect(message("apps-dir = \"~bob/apps\"\n")?.hasPrefix("/c/chimed.toml:1: apps-dir: ") == true)
    #expect(message("thumbnailer = \"bin/chime-thumbnail\"\n")?.hasPrefix("/c/chimed.toml:1: thumbnailer: ") == true)
    #expect(message("", flags: ["data-dir": "data"])?.hasPrefix("--data-dir: \"data\" is not an absolute path") == true)
    #expect(message("", environment: ["HOME": "/home/u", "CHIME_SOCKET": "chimed.sock"])?
      .hasPrefix("CHIME_SOCKET (socket): \"chimed.sock\" is not an absolute path") == true)
    #expect(message("data-dir = \"~/d\"\n", environment: [:])?.contains("HOME is not set") == true)
  }

  /// The XDG base directory spec: a relative value in an XDG variable is invalid and ignored.
  @Test func relativeXDGVariablesAreIgnored() throws {
    let config = try resolve("", environment: ["XDG_STATE_HOME": "state", "XDG_DATA_HOME": "data", "XDG_RUNTIME_DIR": "run"])
    #expect(config.settings.paths.dataDirectory == "/home/account/.local/state/chime")
    #expect(config.settings.paths.appsDirectory == "/home/account/.local/share/chime/apps")
    #expect(config.settings.paths.socketPath == "/tmp/chime-1000/chimed.sock")
    #expect(config.values["data-dir"]?.source == .defaultValue)
    #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "cfg"], home: "/home/u") == "/home/u/.config/chime/chimed.toml")
  }
}
