import ChimeCore
import ChimeStore

/// Content extensions: a connection registers for some of the app's categories and is shown
/// their deliveries, and is asked about their responses before chimed acts on them (keep,
/// dismiss, dismiss and forward: the answer `ResponsePlan.decide` takes). Every wait has a
/// deadline on the service's clock; a missing answer never loses the user's action.
extension ResponseService {
  /// Registers `sink` as `app`'s content extension for `registration`'s categories and sends it
  /// `registered`; returns the token for `unregisterExtension`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_IDENTIFIER`, `EXTENSION_CATEGORIES_REQUIRED`,
  ///   `TOO_MANY_IDENTIFIERS`; ALREADY_EXISTS `EXTENSION_ALREADY_REGISTERED`.
  func registerExtension(app: String, _ registration: ExtensionRegistration, sink: any ExtensionSink) throws(ChimeError) -> UInt64 {
    try registration.validate()
    let token = try context.extensions.hub.register(app: app, registration, sink: sink)
    _ = sink.send(ExtensionEvent(registered: true))
    return token
  }

  func unregisterExtension(app: String, token: UInt64) {
    context.extensions.hub.unregister(app: app, token: token)
  }

  /// A content extension's answer to a response it was shown with a response id.
  ///
  /// - Throws: NOT_FOUND `RESPONSE_NOT_AWAITED`.
  func answerResponse(app: String, extensionIdentifier: String, id: UInt64, answer: ExtensionAnswer) throws(ChimeError) {
    try context.extensions.hub.answer(app: app, extensionIdentifier: extensionIdentifier, id: id, answer)
  }

  /// `fire` with the attributes of the extension live for its category now, just before it is
  /// committed (the snapshot a delivered notification keeps).
  func withExtensionSnapshot(_ fire: Fire) -> Fire {
    guard case .deliver(var record, let note) = fire.delivery else { return fire }
    var stamped = fire
    record.extensionAttributes = context.extensions.hub.attributes(app: fire.app, category: record.request.content.categoryIdentifier)
    stamped.delivery = .deliver(record, note: note)
    return stamped
  }
}
