/// Whether an app may post notifications (UNAuthorizationStatus).
public enum AuthorizationStatus: Int, Hashable, Sendable, CaseIterable {
  case notDetermined = 0
  case denied = 1
  case authorized = 2
  /// Allowed quietly: delivered without sound or badge.
  case provisional = 3

  /// `not-determined`, `denied`, `authorized`, `provisional`.
  public var name: String {
    switch self {
    case .notDetermined: "not-determined"
    case .denied: "denied"
    case .authorized: "authorized"
    case .provisional: "provisional"
    }
  }
}
