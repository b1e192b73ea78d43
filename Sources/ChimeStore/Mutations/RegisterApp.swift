public import ChimeCore

/// Records (or replaces) an app's layout. No event.
public struct RegisterApp: Mutation {
  public var layout: AppLayout
  public var at: Instant
  public var app: String { layout.appID }

  public init(layout: AppLayout, at: Instant) {
    self.layout = layout
    self.at = at
  }

  public func apply(in t: WriteTransaction) throws {
    guard !layout.appID.isEmpty else { throw ChimeError(.invalidAppID, "app id is empty", field: "app_id") }
    let groups = JSONStringList.text(layout.groupContainers)
    try t.db.cachedStatement(sql: """
      INSERT INTO app (id, container, groups, bundle, registered_at, display_name, desktop_entry) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET container = excluded.container, groups = excluded.groups,
        bundle = excluded.bundle, registered_at = excluded.registered_at,
        display_name = excluded.display_name, desktop_entry = excluded.desktop_entry
      """).execute(arguments: [layout.appID, layout.container, groups, layout.bundle, at.unixMillis, layout.displayName, layout.desktopEntry])
  }
}

extension Mutation where Self == RegisterApp {
  public static func registerApp(layout: AppLayout, at: Instant) -> RegisterApp {
    RegisterApp(layout: layout, at: at)
  }
}
