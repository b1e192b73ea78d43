/// How urgently a notification asks for attention (UNNotificationInterruptionLevel).
public enum InterruptionLevel: Int, Hashable, Sendable, CaseIterable {
  case passive = 1
  case active = 2
  case timeSensitive = 3
  case critical = 4

  public var name: String {
    switch self {
    case .passive: "passive"
    case .active: "active"
    case .timeSensitive: "timeSensitive"
    case .critical: "critical"
    }
  }

  public init?(name: String) {
    guard let level = Self.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
    self = level
  }
}
