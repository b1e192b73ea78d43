import ChimeCore
import ChimeStore

/// Categories and actions: `SetCategories` replaces all of an app's categories at once,
/// `GetCategories` answers them.
extension AppRegistry {
  /// Validates `categories` and replaces the app's with them once durable. Notifications
  /// already delivered keep the category snapshot they were delivered with.
  func setCategories(app: String, categories: [NotificationCategory], reply: @escaping Reply<Void>) {
    do {
      try CategoryValidator.validate(categories)
    } catch {
      return reply(.failure(error))
    }
    context.writer.submit(.setCategories(app: app, categories: categories)) { result in
      reply(result.map { _ in () })
    }
  }

  /// The app's categories in the order they were set; empty when none.
  func categories(app: String, reply: @escaping Reply<[NotificationCategory]>) {
    context.read(reply) { (database) throws(ChimeError) in try database.categories(app: app) }
  }
}
