/// A connection registered as one of an app's content extensions for some categories
/// (UNNotificationExtensionCategory). It lives as long as its connection.
public struct ExtensionRegistration: Hashable, Sendable {
  /// Unique among the app's live registrations.
  public var extensionIdentifier: String
  /// The categories whose notifications and responses the extension is shown.
  public var categoryIdentifiers: [String]

  public init(extensionIdentifier: String, categoryIdentifiers: [String]) {
    self.extensionIdentifier = extensionIdentifier
    self.categoryIdentifiers = categoryIdentifiers
  }

  /// - Throws: INVALID_ARGUMENT `INVALID_IDENTIFIER` (an empty, long or control-character
  ///   identifier), `EXTENSION_CATEGORIES_REQUIRED`, `TOO_MANY_IDENTIFIERS`.
  public func validate() throws(ChimeError) {
    try RequestValidator.validateIdentifier(extensionIdentifier, field: "extension_identifier")
    guard !categoryIdentifiers.isEmpty else {
      throw ChimeError(.extensionCategoriesRequired, "name the categories the extension handles", field: "category_identifiers")
    }
    guard categoryIdentifiers.count <= Limits.categoriesPerAppMax else {
      throw ChimeError(.tooManyIdentifiers, "at most \(Limits.categoriesPerAppMax) categories per extension", field: "category_identifiers")
    }
    for (i, category) in categoryIdentifiers.enumerated() {
      try RequestValidator.validateIdentifier(category, field: "category_identifiers[\(i)]")
    }
  }

  /// True when the extension is shown notifications of `category` (never for no category).
  public func handles(_ category: String) -> Bool {
    !category.isEmpty && categoryIdentifiers.contains { $0.utf8.elementsEqual(category.utf8) }
  }

  /// The identifiers of the registrations that handle `category`, sorted.
  public static func routes(_ category: String, among registrations: [ExtensionRegistration]) -> [String] {
    registrations.filter { $0.handles(category) }.map(\.extensionIdentifier).sorted()
  }
}
