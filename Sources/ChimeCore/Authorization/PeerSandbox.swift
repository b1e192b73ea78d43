/// Which app a connecting process may act as, found the way xdg-desktop-portal finds it: a
/// Flatpak app is named by the `.flatpak-info` file in its sandbox's root, a Snap by the
/// `snap.NAME.…` scope of its cgroup. A sandboxed peer may act only as that app; a host
/// process (the user's own programs, one trust domain with chimed) declares its app id.
public enum PeerSandbox: Hashable, Sendable {
  /// Not sandboxed: the app id in each call is taken as declared.
  case host
  /// A Flatpak app, with the id from `[Application] name=`.
  case flatpak(appID: String)
  /// A Snap, by its snap name; it acts as `snap.NAME` (the portal's spelling).
  case snap(name: String)

  /// The only app id the peer may use; nil for a host process.
  public var confinedAppID: String? {
    switch self {
    case .host: nil
    case .flatpak(let id): id
    case .snap(let name): "snap." + name
    }
  }

  /// Reads the peer's sandbox from what its process shows: the text of
  /// `/proc/PID/root/.flatpak-info` (nil when there is none) and of `/proc/PID/cgroup`.
  ///
  /// - Throws: PERMISSION_DENIED `PEER_NOT_IDENTIFIED` when the files say it is sandboxed but
  ///   not as which app (no `[Application] name=`, a name that is not an app id, a malformed
  ///   snap scope), or the cgroup could not be read: a peer that cannot be told apart is not
  ///   trusted with any app's notifications.
  public static func identify(flatpakInfo: String?, cgroup: String?) throws(ChimeError) -> PeerSandbox {
    if let flatpakInfo {
      guard let name = iniValue(flatpakInfo, section: "Application", key: "name"), (try? AppID.validate(name)) != nil else {
        throw ChimeError(.peerNotIdentified, "the peer is a Flatpak app whose .flatpak-info names no valid application id")
      }
      return .flatpak(appID: name)
    }
    guard let cgroup else {
      throw ChimeError(.peerNotIdentified, "the peer's cgroup could not be read, so its sandbox cannot be told")
    }
    for line in cgroup.split(separator: "\n") {
      // "0::/user.slice/…/snap.firefox.firefox-1c2d….scope", or a v1 "N:controller:/path".
      guard let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last else { continue }
      for component in path.split(separator: "/") where component.hasPrefix("snap.") {
        guard let name = snapName(component) else {
          throw ChimeError(.peerNotIdentified, "the peer runs in a snap scope (\(component)) that names no snap")
        }
        return .snap(name: name)
      }
    }
    return .host
  }

  /// Whether the peer may act as `declared`.
  ///
  /// - Throws: PERMISSION_DENIED `APP_ID_MISMATCH` when a sandboxed peer names another app.
  public func check(declared: String) throws(ChimeError) {
    try Self.check(declared: declared, confinedTo: confinedAppID)
  }

  /// `check(declared:)` for a peer known only by its confined app id (nil: a host process).
  public static func check(declared: String, confinedTo confined: String?) throws(ChimeError) {
    guard let confined, !confined.utf8.elementsEqual(declared.utf8) else { return }
    throw ChimeError(.appIDMismatch, "this connection comes from the sandboxed app \(confined); it may not act as \(declared)",
                     field: "app_id")
  }

  /// `snap.NAME.APP-….scope`, `snap.NAME.APP.service`, `snap.NAME.hook.HOOK-….scope`: the snap
  /// name is the second dot-separated part, lowercase letters, digits and hyphens.
  static func snapName(_ component: Substring) -> String? {
    let parts = component.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 4, parts[0] == "snap", let last = parts.last, last == "scope" || last == "service" else { return nil }
    let name = parts[1]
    guard !name.isEmpty, name.count <= 40, name.first != "-", name.last != "-",
          name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else { return nil }
    return String(name)
  }

  /// The value of `key` in `[section]` of a GKeyFile-style text (the first one; no escapes,
  /// which an application id never needs).
  static func iniValue(_ text: String, section: String, key: String) -> String? {
    var inSection = false
    for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = raw.drop(while: { $0 == " " || $0 == "\t" })
      if line.first == "#" { continue }
      if line.first == "[" {
        inSection = line.hasPrefix("[" + section + "]")
        continue
      }
      guard inSection, let equals = line.firstIndex(of: "=") else { continue }
      let name = line[..<equals].trimmingCharacters(in: " \t")
      guard name == key else { continue }
      return line[line.index(after: equals)...].trimmingCharacters(in: " \t\r")
    }
    return nil
  }
}

private extension Substring {
  func trimmingCharacters(in set: String) -> String {
    var s = self
    while let c = s.first, set.contains(c) { s = s.dropFirst() }
    while let c = s.last, set.contains(c) { s = s.dropLast() }
    return String(s)
  }
}
