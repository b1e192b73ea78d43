package import ChimeCore
import ChimeStore
import ChimeSystem
import Dispatch

/// What a test without a notification server needs to play the person at the desktop: click a
/// notification's button, and see Chime's own notifications (the "Allow notifications?"
/// prompts), which no client may list.
extension ChimeDaemon {
  /// A click on a notification's button, as the freedesktop presenter reports one
  /// (`ActionInvoked`). Safe from any thread.
  package func respondFromDesktop(app: String, _ response: NotificationResponse) {
    onLoop { $0.stack?.service.respondFromDesktop(app: app, response: response) }
  }

  /// Chime's own delivered notifications (first page), read from the store; empty once
  /// stopped. Blocks the calling thread, not the loop.
  package func ownDelivered() -> [DeliveredNotification] {
    let result = Locked<[DeliveredNotification]>([])
    let done = DispatchSemaphore(value: 0)
    let queued = loop.execute { [self] in
      guard let service = parts.withLock({ $0 })?.value.stack?.service else {
        done.signal()
        return
      }
      service.context.read({ (read: Result<[DeliveredNotification], ChimeError>) in
        result.withLock { $0 = (try? read.get()) ?? [] }
        done.signal()
      }) { (database) throws(ChimeError) in
        try database.deliveredPage(app: AuthorizationPrompt.appID, page: PageRequest()).items
      }
    }
    if queued { done.wait() }
    return result.withLock { $0 }
  }
}
