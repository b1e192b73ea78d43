public import ChimeCore
import ChimeRecords

/// Replaces all of `app`'s categories with `categories` (validated before), in their order.
/// Delivered notifications keep the snapshots they were delivered with. No event.
public struct SetCategories: Mutation {
  public var app: String
  public var categories: [NotificationCategory]

  public init(app: String, categories: [NotificationCategory]) {
    self.app = app
    self.categories = categories
  }

  public func apply(in t: WriteTransaction) throws {
    guard !app.isEmpty else { throw ChimeError(.invalidAppID, "app id is empty", field: "app_id") }
    try t.db.cachedStatement(sql: "DELETE FROM category WHERE app = ?").execute(arguments: [app])
    let insert = try t.db.cachedStatement(sql: "INSERT INTO category (app, identifier, position, body) VALUES (?, ?, ?, ?)")
    for (position, category) in categories.enumerated() {
      try insert.execute(arguments: [app, category.identifier, position, t.codec.encode(category)])
    }
  }
}

extension Mutation where Self == SetCategories {
  public static func setCategories(app: String, categories: [NotificationCategory]) -> SetCategories {
    SetCategories(app: app, categories: categories)
  }
}
