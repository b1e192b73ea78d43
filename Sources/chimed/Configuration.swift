import ChimeCore
import ChimeConfig
import ChimeSystem
import Glibc
import Logging

/// Reads chimed.toml and merges it with this process's flags and environment.
struct ConfigLoader: Sendable {
  /// EX_CONFIG: chimed.service does not restart on it (a restart would read the same file).
  static let invalidExitCode: Int32 = 78

  let flags: [String: String]
  let explicitPath: String?

  func load() throws(ConfigError) -> ChimedConfig {
    let environment = ProcessEnvironment.variables
    let home = ProcessEnvironment.homeDirectory
    var path = ConfigFile.defaultPath(environment: environment, home: home)
    if let explicitPath {
      // `--config=~/x` reaches chimed unexpanded (the shell expands only a word's leading ~).
      // A relative path stays relative: given on a command line, it is read where it was typed.
      do throws(ConfigPath.Refusal) {
        path = explicitPath.hasPrefix("~") ? try ConfigPath.resolve(explicitPath, home: environment["HOME"]) : explicitPath
      } catch {
        throw ConfigError("--config: \(error.message)")
      }
    }
    let file = try ConfigFile.load(path: path, required: explicitPath != nil)
    return try ChimedConfig.resolve(flags: flags, file: file, environment: environment, home: home,
                                    uid: ProcessEnvironment.userID)
  }
}

/// The level every chimed logger logs at; SIGHUP may change it.
final class LogLevelSwitch: Sendable {
  static let shared = LogLevelSwitch()
  private let level = Locked(Logger.Level.info)
  func set(_ new: Logger.Level) { level.withLock { $0 = new } }
  func get() -> Logger.Level { level.withLock { $0 } }
}

/// StreamLogHandler to stderr, at the level of `LogLevelSwitch.shared`.
struct ReloadableLogHandler: LogHandler {
  private var stream: StreamLogHandler

  init(label: String) {
    stream = StreamLogHandler.standardError(label: label)
    stream.logLevel = .trace
  }

  var logLevel: Logger.Level {
    get { LogLevelSwitch.shared.get() }
    set { LogLevelSwitch.shared.set(newValue) }
  }

  var metadata: Logger.Metadata {
    get { stream.metadata }
    set { stream.metadata = newValue }
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { stream[metadataKey: key] }
    set { stream[metadataKey: key] = newValue }
  }

  func log(event: LogEvent) {
    stream.log(event: event)
  }
}

/// SIGHUP: re-reads the configuration and applies what can change without a restart (the log
/// level); logs what changed, and what would need a restart. An invalid file keeps the running
/// configuration and logs the error. Runs on a thread of its own that waits in sigwait(2), so
/// the daemon's loop is untouched.
enum ConfigReloader {
  static func blockHangup() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGHUP)
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  static func start(loader: ConfigLoader, running: ChimedConfig, logger: Logger) {
    let current = Locked(running)
    onEachHangup { current.withLock { $0 = reload(loader: loader, running: $0, started: running, logger: logger) } }
  }

  /// Runs `action` on a thread of its own each time SIGHUP arrives (blocked by `blockHangup`).
  static func onEachHangup(_ action: @escaping @Sendable () -> Void) {
    SystemThread.start(name: "chimed-reload") {
      var set = sigset_t()
      sigemptyset(&set)
      sigaddset(&set, SIGHUP)
      while true {
        var received: Int32 = 0
        guard sigwait(&set, &received) == 0, received == SIGHUP else { continue }
        action()
      }
    }
  }

  static func reload(loader: ConfigLoader, running: ChimedConfig, started: ChimedConfig, logger: Logger) -> ChimedConfig {
    let next: ChimedConfig
    do throws(ConfigError) {
      next = try loader.load()
    } catch {
      logger.error("SIGHUP: configuration not reloaded, keeping the running one: \(error.message)")
      return running
    }
    let changes = next.reloadableChanges(from: running)
    let restartOnly = next.restartOnlyChanges(from: started)
    if let level = Logger.Level(rawValue: next.settings.logLevel) { LogLevelSwitch.shared.set(level) }
    logger.notice("SIGHUP: configuration reloaded: \(changes.isEmpty ? "nothing changed" : changes.joined(separator: "; "))")
    if !restartOnly.isEmpty {
      logger.warning("SIGHUP: changed but applied only on restart: \(restartOnly.joined(separator: ", "))")
    }
    return next
  }
}
