/// Where a delivered notification is shown besides chimed's log.
public enum PresenterKind: String, Hashable, Sendable, CaseIterable {
  /// org.freedesktop.Notifications on the session bus.
  case freedesktop
  /// A configured program, given the notification as JSON on stdin.
  case command
  /// Nothing but the log.
  case none
}

/// Which presenters chimed runs, from its flags and what the machine offers. Pure.
public enum PresenterSelection {
  /// `list` is `--presenter` (comma-separated; nil when not given); `command` is
  /// `--present-command`; `sessionBus` says whether a session bus address is known.
  ///
  /// Not given: `freedesktop` when there is a session bus, plus `command` when a command is
  /// configured (nothing but the log when neither). Given: exactly the presenters named;
  /// `none` may not be combined with another; `command` needs a command.
  ///
  /// - Returns: the presenters in order (never `.none`; empty means the log only), or a message
  ///   saying what is wrong with the flags.
  public static func choose(list: String?, command: String?, sessionBus: Bool) -> Result<[PresenterKind], SelectionError> {
    let hasCommand = !(command ?? "").isEmpty
    guard let list else {
      var kinds: [PresenterKind] = []
      if sessionBus { kinds.append(.freedesktop) }
      if hasCommand { kinds.append(.command) }
      return .success(kinds)
    }
    var kinds: [PresenterKind] = []
    for word in list.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.trimmingWhitespace().lowercased()
      guard let kind = PresenterKind(rawValue: name) else {
        return .failure(SelectionError("--presenter: \"\(name)\" is not freedesktop, command or none"))
      }
      if !kinds.contains(kind) { kinds.append(kind) }
    }
    if kinds.contains(.none) {
      guard kinds.count == 1 else { return .failure(SelectionError("--presenter: none cannot be combined with other presenters")) }
      return .success([])
    }
    if kinds.contains(.command) && !hasCommand {
      return .failure(SelectionError("--presenter command needs --present-command PATH"))
    }
    return .success(kinds)
  }

  public struct SelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }
}
