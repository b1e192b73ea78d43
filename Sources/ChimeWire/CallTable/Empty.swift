/// The `chime.v1.Empty` message: the request of a call that takes nothing (`GetApp`,
/// `ListApps`, `RemoveAllPending`, `RemoveAllDelivered`).
public struct Empty: Hashable, Sendable {
  public init() {}
}
