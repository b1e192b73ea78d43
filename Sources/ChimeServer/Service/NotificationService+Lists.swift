import ChimeCore
import ChimeStore

/// Listing, removing and subscribing: the calls that read the store or remove from it.
extension NotificationService {
  /// Each request carries the attributes of the content extension live now for its category.
  func pending(app: String, page: PageRequest, reply: @escaping Reply<Page<PendingRequest>>) {
    read({ [self] result in
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
    read(reply) { (database) throws(ChimeError) in try database.deliveredPage(app: app, page: page, maxBytes: Self.replyBudgetBytes) }
  }

  /// nil identifiers removes all of the app's pending requests.
  func removePending(app: String, identifiers: [String]?, reply: @escaping Reply<[String]>) {
    if let identifiers, let error = checkIdentifiers(identifiers) {
      reply(.failure(error))
      return
    }
    writer.submit(Remove(from: .pending, app: app, identifiers: identifiers, at: clock.now())) { [self] result in
      reply(result.map { outcome in
        published(outcome.events, files: outcome.discardedFiles, app: app)
        return outcome.removed
      })
    }
  }

  func removeDelivered(app: String, identifiers: [String]?, reply: @escaping Reply<[String]>) {
    if let identifiers, let error = checkIdentifiers(identifiers) {
      reply(.failure(error))
      return
    }
    writer.submit(Remove(from: .delivered, app: app, identifiers: identifiers, at: clock.now())) { [self] result in
      reply(result.map { outcome in
        published(outcome.events, files: outcome.discardedFiles, app: app)
        return outcome.removed
      })
    }
  }

  func subscribe(app: String, after cursor: UInt64?, sink: any EventSink) throws(ChimeError) -> UInt64 {
    try hub.subscribe(app: app, after: cursor, sink: sink)
  }

  func unsubscribe(app: String, token: UInt64) {
    hub.unsubscribe(app: app, token: token)
  }

  func read<T: Sendable>(_ reply: @escaping Reply<T>, _ query: @escaping @Sendable (ChimeDatabase) throws(ChimeError) -> T) {
    let database = self.database
    loop.runBlocking(catching: { () throws(ChimeError) in try query(database) }, then: reply)
  }

  func checkIdentifiers(_ identifiers: [String]) -> ChimeError? {
    guard identifiers.count <= Limits.identifiersPerCallMax else {
      return ChimeError(.tooManyIdentifiers, "at most \(Limits.identifiersPerCallMax) identifiers per call", field: "identifiers")
    }
    for (i, id) in identifiers.enumerated() {
      do { try RequestValidator.validateIdentifier(id, field: "identifiers[\(i)]") } catch { return error }
    }
    return nil
  }
}
