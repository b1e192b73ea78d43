/// Where an app keeps its files: the container (custom sounds in `Library/Sounds`), its group
/// containers (each with `Library/Sounds`, searched in order) and its bundle (sounds at its top
/// level; attachments from inside it are copied, never moved).
public struct AppLayout: Hashable, Sendable {
  public var appID: String
  public var container: String
  public var groupContainers: [String]
  public var bundle: String
  /// False for the defaults of an app that never called RegisterApp.
  public var registered: Bool
  /// The app's name on the desktop; empty: its id.
  public var displayName: String
  /// Its `.desktop` file id without the suffix (the `desktop-entry` hint); empty for none.
  public var desktopEntry: String

  public init(appID: String, container: String, groupContainers: [String] = [], bundle: String, registered: Bool = true,
              displayName: String = "", desktopEntry: String = "") {
    self.appID = appID
    self.container = container
    self.groupContainers = groupContainers
    self.bundle = bundle
    self.registered = registered
    self.displayName = displayName
    self.desktopEntry = desktopEntry
  }

  /// Checks what RegisterApp adds beside the directories.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_TOO_LONG` (a display name over 256 bytes, a desktop
  ///   entry over 255); INVALID_ARGUMENT `INVALID_IDENTIFIER` (a desktop entry with other than
  ///   letters, digits, '.', '-', '_').
  public static func validateDesktop(displayName: String, desktopEntry: String) throws(ChimeError) {
    guard displayName.utf8.count <= 256 else {
      throw ChimeError(.fieldTooLong, "display_name is longer than 256 bytes", field: "display_name")
    }
    guard desktopEntry.utf8.count <= 255 else {
      throw ChimeError(.fieldTooLong, "desktop_entry is longer than 255 bytes", field: "desktop_entry")
    }
    let allowed = desktopEntry.unicodeScalars.allSatisfy { c in
      (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "." || c == "-" || c == "_"
    }
    guard allowed else {
      throw ChimeError(.invalidIdentifier, "desktop_entry \"\(desktopEntry)\" is not a .desktop file id (letters, digits, '.', '-', '_'; no suffix)",
                       field: "desktop_entry")
    }
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
public struct SoundSearchStep: Hashable, Sendable {
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
