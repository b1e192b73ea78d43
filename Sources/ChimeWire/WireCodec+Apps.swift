public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// App layouts and sound lookup: `RegisterApp`, `GetApp`, `ListApps`, `CheckSound`; and the
/// server's own `GetServerInfo`.
extension WireCodec {
  /// What `RegisterAppRequest` carries: empty container or bundle means the default.
  public struct AppRegistration: Hashable, Sendable {
    public var container: String
    public var groupContainers: [String]
    public var bundle: String
    /// The app's name on the desktop; empty: its id.
    public var displayName: String
    /// Its `.desktop` file id without the suffix; empty for none.
    public var desktopEntry: String

    public init(container: String = "", groupContainers: [String] = [], bundle: String = "", displayName: String = "",
                desktopEntry: String = "") {
      self.container = container
      self.groupContainers = groupContainers
      self.bundle = bundle
      self.displayName = displayName
      self.desktopEntry = desktopEntry
    }
  }

  public static func encodeRegisterAppRequest(_ r: AppRegistration) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("app layout") { arena in
      let m = arena.message(chime__v1__register_app_request__init)
      arena.assign(&m.pointee.container, r.container)
      arena.assign(&m.pointee.group_containers, count: &m.pointee.n_group_containers, r.groupContainers)
      arena.assign(&m.pointee.bundle, r.bundle)
      arena.assign(&m.pointee.display_name, r.displayName)
      arena.assign(&m.pointee.desktop_entry, r.desktopEntry)
      return m
    }
  }

  public static func decodeRegisterAppRequest(_ bytes: [UInt8]) throws(ChimeError) -> AppRegistration {
    try ProtoMessage.decode(bytes, as: "RegisterAppRequest", with: chime__v1__register_app_request__unpack) { m throws(ChimeError) in
      AppRegistration(
        container: try ProtoMessage.text(m.pointee.container, "container"),
        groupContainers: try ProtoMessage.texts(m.pointee.group_containers, count: m.pointee.n_group_containers, "group_containers"),
        bundle: try ProtoMessage.text(m.pointee.bundle, "bundle"),
        displayName: try ProtoMessage.text(m.pointee.display_name, "display_name"),
        desktopEntry: try ProtoMessage.text(m.pointee.desktop_entry, "desktop_entry"))
    }
  }

  /// `AppLayout`.
  public static func encodeAppLayout(_ layout: AppLayout) -> [UInt8] {
    ProtoMessage.pack { arena in buildLayout(layout, in: arena) }
  }

  public static func decodeAppLayout(_ bytes: [UInt8]) throws(ChimeError) -> AppLayout {
    try ProtoMessage.decode(bytes, as: "AppLayout", with: chime__v1__app_layout__unpack) { m throws(ChimeError) in
      try layout(m.pointee, "")
    }
  }

  /// `ListAppsResponse`.
  public static func encodeListAppsResponse(_ apps: [AppLayout]) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__list_apps_response__init)
      arena.assign(&m.pointee.apps, count: &m.pointee.n_apps, apps) { buildLayout($0, in: arena) }
      return m
    }
  }

  public static func decodeListAppsResponse(_ bytes: [UInt8]) throws(ChimeError) -> [AppLayout] {
    try ProtoMessage.decode(bytes, as: "ListAppsResponse", with: chime__v1__list_apps_response__unpack) { m throws(ChimeError) in
      var apps: [AppLayout] = []
      if let list = m.pointee.apps {
        for i in 0..<m.pointee.n_apps {
          guard let item = list[i] else { continue }
          apps.append(try layout(item.pointee, "apps[\(i)]."))
        }
      }
      return apps
    }
  }

  /// `ServerInfo`.
  public static func encodeServerInfo(_ info: ServerInfo) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__server_info__init)
      arena.assign(&m.pointee.version, info.version)
      m.pointee.pid = UInt32(bitPattern: info.processID)
      m.pointee.started_at_ms = info.startedAt.unixMillis
      arena.assign(&m.pointee.data_directory, info.dataDirectory)
      arena.assign(&m.pointee.socket_path, info.socketPath)
      return m
    }
  }

  public static func decodeServerInfo(_ bytes: [UInt8]) throws(ChimeError) -> ServerInfo {
    try ProtoMessage.decode(bytes, as: "ServerInfo", with: chime__v1__server_info__unpack) { m throws(ChimeError) in
      ServerInfo(version: try ProtoMessage.text(m.pointee.version, "version"), processID: Int32(bitPattern: m.pointee.pid),
                 startedAt: Instant(unixMillis: m.pointee.started_at_ms),
                 dataDirectory: try ProtoMessage.text(m.pointee.data_directory, "data_directory"),
                 socketPath: try ProtoMessage.text(m.pointee.socket_path, "socket_path"))
    }
  }

  /// `CheckSoundRequest`.
  public static func encodeCheckSoundRequest(name: String) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("sound name") { arena in
      let m = arena.message(chime__v1__check_sound_request__init)
      arena.assign(&m.pointee.name, name)
      return m
    }
  }

  public static func decodeCheckSoundRequest(_ bytes: [UInt8]) throws(ChimeError) -> String {
    try ProtoMessage.decode(bytes, as: "CheckSoundRequest", with: chime__v1__check_sound_request__unpack) { m throws(ChimeError) in
      try ProtoMessage.text(m.pointee.name, "name")
    }
  }

  /// `CheckSoundResponse`.
  public static func encodeCheckSoundResponse(_ check: SoundCheck) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__check_sound_response__init)
      arena.assign(&m.pointee.searched, count: &m.pointee.n_searched, check.searched) { step in
        let s = arena.message(chime__v1__sound_search_step__init)
        arena.assign(&s.pointee.path, step.path)
        s.pointee.exists = step.exists ? 1 : 0
        arena.assign(&s.pointee.note, step.note)
        return s
      }
      m.pointee.resolution = RequestProto.build(check.resolution, in: arena)
      return m
    }
  }

  public static func decodeCheckSoundResponse(_ bytes: [UInt8]) throws(ChimeError) -> SoundCheck {
    try ProtoMessage.decode(bytes, as: "CheckSoundResponse", with: chime__v1__check_sound_response__unpack) { m throws(ChimeError) in
      var steps: [SoundSearchStep] = []
      if let list = m.pointee.searched {
        for i in 0..<m.pointee.n_searched {
          guard let s = list[i]?.pointee else { continue }
          steps.append(SoundSearchStep(path: try ProtoMessage.text(s.path, "searched[\(i)].path"), exists: s.exists != 0,
                                       note: try ProtoMessage.text(s.note, "searched[\(i)].note")))
        }
      }
      let resolution = try RequestProto.soundResolution(m.pointee.resolution, "resolution") ?? SoundResolution(plays: .default)
      return SoundCheck(searched: steps, resolution: resolution)
    }
  }

  private static func buildLayout(_ layout: AppLayout, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__AppLayout> {
    let m = arena.message(chime__v1__app_layout__init)
    arena.assign(&m.pointee.app_id, layout.appID)
    arena.assign(&m.pointee.container, layout.container)
    arena.assign(&m.pointee.group_containers, count: &m.pointee.n_group_containers, layout.groupContainers)
    arena.assign(&m.pointee.bundle, layout.bundle)
    m.pointee.registered = layout.registered ? 1 : 0
    arena.assign(&m.pointee.display_name, layout.displayName)
    arena.assign(&m.pointee.desktop_entry, layout.desktopEntry)
    return m
  }

  private static func layout(_ m: Chime__V1__AppLayout, _ prefix: String) throws(ChimeError) -> AppLayout {
    AppLayout(appID: try ProtoMessage.text(m.app_id, prefix + "app_id"),
              container: try ProtoMessage.text(m.container, prefix + "container"),
              groupContainers: try ProtoMessage.texts(m.group_containers, count: m.n_group_containers, prefix + "group_containers"),
              bundle: try ProtoMessage.text(m.bundle, prefix + "bundle"),
              registered: m.registered != 0,
              displayName: try ProtoMessage.text(m.display_name, prefix + "display_name"),
              desktopEntry: try ProtoMessage.text(m.desktop_entry, prefix + "desktop_entry"))
  }
}
