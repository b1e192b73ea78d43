import ChimeCore
import ChimeSystem
import Logging

/// Runs a configured program for each delivery, with the notification as JSON on stdin
/// (`CommandPayload`): for scripts, mail, phones. The program runs on the work pool with a
/// time limit, one at a time (a lane of its own: a few hanging programs would otherwise hold
/// every pool thread, and with them the commits and reads of every call and fire, up to the
/// time limit); a non-zero exit or a hang past the limit is a failure (logged and reported),
/// never a lost delivery. Loop thread only.
final class CommandPresenter {
  private let loop: EventLoop
  private let command: [String]
  private let timeoutMillis: Int
  private let logger: Logger
  private let lane: FileLane

  init(loop: EventLoop, command: [String], timeoutMillis: Int, logger: Logger) {
    self.loop = loop
    lane = FileLane(loop: loop, width: 1)
    self.command = command
    self.timeoutMillis = timeoutMillis
    self.logger = logger
  }

  func present(_ delivered: DeliveredNotification, app: DesktopNotificationPlan.App, sound: SoundChoice,
               failed: @escaping (PresentationFailure) -> Void) {
    let input = Array(CommandPayload(delivered, app: app, sound: sound).json().utf8)
    let command = self.command, timeout = timeoutMillis
    let identifier = delivered.request.identifier
    lane.run({ Subprocess.run(command, input: input, timeoutMillis: timeout) }, then: { [logger] outcome in
      if outcome.succeeded {
        logger.debug("presenter command done", metadata: ["app": "\(app.id)", "id": "\(identifier)"])
      } else {
        failed(PresentationFailure(presenter: "command", app: app.id, identifier: identifier,
                                   reason: "\(command[0]) \(outcome)"))
      }
    }, refuse: { [logger] in
      logger.info("presenter command not run: chimed is stopping", metadata: ["app": "\(app.id)", "id": "\(identifier)"])
    })
  }

  /// Runs no more commands; the one running goes on to its end or its time limit.
  func stop() {
    lane.close()
  }
}
