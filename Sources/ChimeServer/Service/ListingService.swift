import ChimeCore
import ChimeStore

/// Listing, removing and subscribing: the calls that read the store or remove from it.
/// Loop thread only.
final class ListingService {
  typealias Reply<T> = ServiceContext.Reply<T>

  /// Listing pages stop short of this many bytes of records, so a reply fits the 1 MiB frame
  /// every client accepts by default, whatever the page size asked for.
  static let replyBudgetBytes = (1 << 20) - 64 * 1024

  let context: ServiceContext

  init(context: ServiceContext) {
    self.context = context
  }

  /// Each request carries the attributes of the content extension live now for its category.
  func pending(app: String, page: PageRequest, reply: @escaping Reply<Page<PendingRequest>>) {
    let extensions = context.extensions.hub
    context.read({ result in
      reply(result.map { page in
        var page = page
        for i in page.items.indices {
          page.items[i].extensionAttributes = extensions.attributes(app: app, category: page.items[i].request.content.categoryIdentifier)
        }
        return page
      })
    }) { (database) throws(ChimeError) in try database.pendingPage(app: app, page: page, maxBytes: Self.replyBudgetBytes) }
  }

  func delivered(app: String, page: PageRequest, reply: @escaping Reply<Page<DeliveredNotification>>) {
    context.read(reply) { (database) throws(ChimeError) in try database.deliveredPage(app: app, page: page, maxBytes: Self.replyBudgetBytes) }
  }

  /// nil identifiers removes all of the app's pending requests.
  func removePending(app: String, identifiers: [String]?, reply: @escaping Reply<[String]>) {
    remove(from: .pending, app: app, identifiers: identifiers, reply: reply)
  }

  /// nil identifiers removes all of the app's delivered notifications.
  func removeDelivered(app: String, identifiers: [String]?, reply: @escaping Reply<[String]>) {
    remove(from: .delivered, app: app, identifiers: identifiers, reply: reply)
  }

  private func remove(from list: Remove.From, app: String, identifiers: [String]?, reply: @escaping Reply<[String]>) {
    if let identifiers, let error = checkIdentifiers(identifiers) {
      return reply(.failure(error))
    }
    context.writer.submit(Remove(from: list, app: app, identifiers: identifiers, at: context.clock.now())) { [context] result in
      reply(result.map { outcome in
        context.published(outcome.events, files: outcome.discardedFiles, app: app)
        return outcome.removed
      })
    }
  }

  func subscribe(app: String, after cursor: UInt64?, sink: any EventSink) throws(ChimeError) -> UInt64 {
    try context.hub.subscribe(app: app, after: cursor, sink: sink)
  }

  func unsubscribe(app: String, token: UInt64) {
    context.hub.unsubscribe(app: app, token: token)
  }

  private func checkIdentifiers(_ identifiers: [String]) -> ChimeError? {
    guard identifiers.count <= Limits.identifiersPerCallMax else {
      return ChimeError(.tooManyIdentifiers, "at most \(Limits.identifiersPerCallMax) identifiers per call", field: "identifiers")
    }
    for (i, id) in identifiers.enumerated() {
      do { try RequestValidator.validateIdentifier(id, field: "identifiers[\(i)]") } catch { return error }
    }
    return nil
  }
}
