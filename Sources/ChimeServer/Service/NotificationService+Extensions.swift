import ChimeCore

/// Content extensions: a connection registers for some of the app's categories and is shown
/// their deliveries and responses. Today an extension is told after the commit; asking it
/// first (keep, dismiss, dismiss and forward) is where `ResponsePlan.decide` takes its answer.
extension NotificationService {
  /// Registers `sink` as `app`'s content extension for `registration`'s categories and sends it
  /// `registered`; returns the token for `unregisterExtension`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_IDENTIFIER`, `EXTENSION_CATEGORIES_REQUIRED`,
  ///   `TOO_MANY_IDENTIFIERS`; ALREADY_EXISTS `EXTENSION_ALREADY_REGISTERED`.
  func registerExtension(app: String, _ registration: ExtensionRegistration, sink: any ExtensionSink) throws(ChimeError) -> UInt64 {
    try registration.validate()
    let token = try extensions.register(app: app, registration, sink: sink)
    _ = sink.send(ExtensionEvent(registered: true))
    return token
  }

  func unregisterExtension(app: String, token: UInt64) {
    extensions.unregister(app: app, token: token)
  }
}
