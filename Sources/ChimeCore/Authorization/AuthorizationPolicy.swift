/// What the daemon answers an app's first authorization request on the user's behalf
/// (`chimed --authorization`).
public enum AuthorizationPolicy: String, Hashable, Sendable, CaseIterable {
  /// Every app is allowed what it asks for; an app that never asked may post with alert, sound
  /// and badge (the behaviour before authorization existed).
  case allow
  /// An app is denied until the user allows it (`chime apps allow ID`); an app that never asked
  /// may not post either.
  case askDenies = "ask-denies"

  /// The record after `app` asks for `options`. The first request decides from the policy;
  /// later ones (anything but not-determined recorded) return the record unchanged.
  /// Provisional asks are allowed quietly under `allow`. What is granted is what was asked,
  /// less what the user already switched off before the app asked.
  public func decide(_ options: AuthorizationOptions, recorded: AppAuthorization) -> AppAuthorization {
    guard recorded.status == .notDetermined else { return recorded }
    var decided = recorded
    let asked = options.subtracting(.provisional)
    decided.granted = recorded.granted.map { asked.intersection($0) } ?? asked
    switch self {
    case .allow:
      decided.status = options.contains(.provisional) ? .provisional : .authorized
    case .askDenies:
      decided.status = .denied
    }
    return decided
  }
}
