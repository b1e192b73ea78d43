/// Where an app keeps its files: the container (custom sounds in `Library/Sounds`), its group
/// containers (each with `Library/Sounds`, searched in order) and its bundle (sounds at its top
/// level; attachments from inside it are copied, never moved).
public struct AppLayout: Hashable, Sendable, Codable {
  public var appID: String
  public var container: String
  public var groupContainers: [String]
  public var bundle: String
  /// False for the defaults of an app that never called RegisterApp.
  public var registered: Bool

  public init(appID: String, container: String, groupContainers: [String] = [], bundle: String, registered: Bool = true) {
    self.appID = appID
    self.container = container
    self.groupContainers = groupContainers
    self.bundle = bundle
    self.registered = registered
  }

  /// `<apps>/<id>/container` and `<apps>/<id>/bundle`, no group containers.
  public static func defaults(for appID: String, appsDirectory: String) -> AppLayout {
    let base = appsDirectory + "/" + appID
    return AppLayout(appID: appID, container: base + "/container", bundle: base + "/bundle", registered: false)
  }

  /// The directories a sound name is looked up in, first match wins: the container's
  /// `Library/Sounds`, each group container's `Library/Sounds`, then the bundle.
  public var soundDirectories: [String] {
    [container + "/Library/Sounds"] + groupContainers.map { $0 + "/Library/Sounds" } + [bundle]
  }
}

/// One place a sound name was looked for.
public struct SoundSearchStep: Hashable, Sendable, Codable {
  public var path: String
  public var exists: Bool
  /// Why an existing entry was passed over (e.g. a symlink leaving the sound directories).
  public var note: String

  public init(path: String, exists: Bool, note: String = "") {
    self.path = path
    self.exists = exists
    self.note = note
  }
}

/// What CheckSound answers: every place searched, in order, and the outcome.
public struct SoundCheck: Hashable, Sendable {
  public var searched: [SoundSearchStep]
  public var resolution: SoundResolution

  public init(searched: [SoundSearchStep], resolution: SoundResolution) {
    self.searched = searched
    self.resolution = resolution
  }
}
