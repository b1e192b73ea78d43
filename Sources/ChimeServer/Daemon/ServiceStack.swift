import ChimeConfig
import ChimeCore
import ChimeStore
import ChimeSystem
import Logging

/// What the daemon serves with, built in order: the store in the data directory, the attachment
/// store beside it (swept of files no row names), the service and its router. No socket here:
/// the connection registry and the in-process transport both hand calls to `router`.
/// Loop thread only.
final class ServiceStack {
  let database: ChimeDatabase
  let service: NotificationService
  let router: CallRouter
  /// What the start-up attachment sweep found.
  let sweep: AttachmentStore.SweepReport

  /// Opens the store under `configuration.paths.dataDirectory`, which must exist (chimed creates it),
  /// reads every app's authorization (a few rows per app, before any call can arrive) and starts
  /// the service (its scheduler arms, its event cursor is read).
  ///
  /// - Throws: UNAVAILABLE `DATA_DIR_UNAVAILABLE` when the directory cannot be resolved; the
  ///   store's errors when it cannot be opened.
  /// `notificationServer` connects the freedesktop presenter to the desktop (chimed: ChimeDBus).
  init(loop: EventLoop, configuration: ServerConfiguration, notificationServer: (any NotificationServerConnector)?) throws(ChimeError) {
    let logger = configuration.collaborators.logger
    // One spelling of the data directory for every path stored under it: absolute, symlinks
    // resolved, whatever form --data-dir or $XDG_STATE_HOME gave.
    guard let dataDirectory = FileSystem.realPath(configuration.paths.dataDirectory) else {
      throw ChimeError(.dataDirUnavailable, "cannot resolve the data directory \(configuration.paths.dataDirectory)")
    }
    database = try ChimeDatabase(path: dataDirectory + "/chime.db", logger: logger, eventRetention: configuration.limits.eventRetention,
                                 attachmentQuota: configuration.limits.attachmentQuotaBytes,
                                 checkAtOpenLimit: configuration.limits.storeCheckAtOpenLimitBytes)
    let attachments = AttachmentStore(dataDirectory: dataDirectory, logger: logger, thumbnailBox: configuration.policy.thumbnailBox,
                                      thumbnailer: Self.thumbnailer(configuration))
    sweep = Self.sweep(attachments, database: database, logger: logger)
    let presenters = PresenterSet(loop: loop, database: database, clock: configuration.hooks.clock, configuration: configuration.collaborators.presentation,
                                  thumbnails: RenderedThumbnails(store: attachments), notificationServer: notificationServer, logger: logger,
                                  monotonicMillis: configuration.hooks.monotonicMillis)
    service = NotificationService(loop: loop, database: database, attachments: attachments,
                                  presenter: presenters, configuration: configuration,
                                  authorizations: try database.authorizations(), doNotDisturb: try database.doNotDisturb())
    presenters.host = service
    let server = ServerInfo(version: configuration.version, processID: ProcessEnvironment.processID,
                            startedAt: configuration.hooks.clock.now(), dataDirectory: dataDirectory,
                            socketPath: configuration.paths.socketPath)
    router = CallRouter(service: service, server: server, clock: configuration.hooks.clock, logger: logger)
    let desktop: (any DesktopQuietSource)? = configuration.hooks.desktopQuiet ?? PresenterDesktopQuiet(presenters, loop: loop)
    service.start(desktop: desktop)
    logger.info("store open", metadata: ["data_dir": "\(dataDirectory)"])
  }

  /// The thumbnail helper, or nil (thumbnails off) with one warning saying where it was sought.
  private static func thumbnailer(_ configuration: ServerConfiguration) -> ThumbnailHelper? {
    guard let path = ThumbnailHelper.locate(configured: configuration.paths.thumbnailer) else {
      let sought = configuration.paths.thumbnailer.map { [$0] } ?? ThumbnailHelper.candidates()
      configuration.collaborators.logger.warning("thumbnails off: no \(ThumbnailHelper.name) helper found",
                                   metadata: ["sought": "\(sought.joined(separator: ", "))"])
      return nil
    }
    var helper = ThumbnailHelper(path: path)
    helper.timeoutMillis = configuration.limits.thumbnailTimeoutMillis
    configuration.collaborators.logger.debug("thumbnail helper", metadata: ["path": "\(path)"])
    return helper
  }

  /// Before serving: store files no row names go (a crash between staging and commit), and
  /// rows whose file vanished are reported. Runs once, before the socket exists.
  private static func sweep(_ attachments: AttachmentStore, database: ChimeDatabase, logger: Logger) -> AttachmentStore.SweepReport {
    do {
      let report = attachments.sweep(known: try database.attachmentPaths())
      if !report.removed.isEmpty {
        logger.notice("removed attachment files no request holds", metadata: ["count": "\(report.removed.count)"])
      }
      for path in report.missing {
        logger.warning("an attachment file is missing from the store", metadata: ["path": "\(path)"])
      }
      return report
    } catch {
      logger.error("attachment sweep skipped", metadata: ["error": "\(error)"])
      return AttachmentStore.SweepReport()
    }
  }

  /// Refuses new calls, then runs `done` once every accepted change is committed and the
  /// scheduler has stopped.
  func drain(_ done: @escaping () -> Void) {
    router.draining = true
    service.stop(done)
  }
}
