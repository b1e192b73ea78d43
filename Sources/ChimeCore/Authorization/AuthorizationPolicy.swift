/// What the daemon answers an app's first authorization request on the user's behalf
/// (`chimed --authorization`).
public enum AuthorizationPolicy: String, Hashable, Sendable, CaseIterable {
  /// Every app is allowed what it asks for; an app that never asked may post with alert, sound
  /// and badge (the behaviour before authorization existed).
  case allow
  /// An app is denied until the user allows it (`chime apps allow ID`); an app that never asked
  /// may not post either.
  case askDenies = "ask-denies"
  /// The user is asked: an app's first request shows Chime's own "Allow notifications?"
  /// notification (`AuthorizationPrompt`) and the app stays not determined, unable to post,
  /// until the user answers it (or `chime apps allow|deny`). A provisional request is granted
  /// quietly without asking, as Apple does.
  case ask

  /// The record after `app` asks for `options`. The first request decides from the policy;
  /// later ones (anything but not-determined recorded) return the record unchanged.
  /// Provisional asks are allowed quietly under `allow` and `ask`; under `ask` anything else
  /// stays not determined, with what was asked recorded for the user's answer. What is granted is what was asked,
  /// less what the user already switched off before the app asked.
  public func decide(_ options: AuthorizationOptions, recorded: AppAuthorization) -> AppAuthorization {
    guard recorded.status == .notDetermined else { return recorded }
    // Asked again while the prompt waits: what it asked first stands (the prompt shows it).
    if self == .ask, recorded.granted != nil, !options.contains(.provisional) { return recorded }
    var decided = recorded
    let asked = options.subtracting(.provisional)
    decided.granted = recorded.granted.map { asked.intersection($0) } ?? asked
    switch self {
    case .allow:
      decided.status = options.contains(.provisional) ? .provisional : .authorized
    case .askDenies:
      decided.status = .denied
    case .ask:
      decided.status = options.contains(.provisional) ? .provisional : .notDetermined
    }
    return decided
  }
}

extension AuthorizationPolicy {
  /// Whether an app's first request (not provisional) is put to the user and waited for.
  public func asksUser(_ options: AuthorizationOptions) -> Bool {
    self == .ask && !options.contains(.provisional)
  }
}
