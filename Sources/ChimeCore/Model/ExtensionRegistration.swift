/// A connection registered as one of an app's content extensions for some categories
/// (UNNotificationExtensionCategory). It lives as long as its connection.
public struct ExtensionRegistration: Hashable, Sendable {
  /// Unique among the app's live registrations.
  public var extensionIdentifier: String
  /// The categories whose notifications and responses the extension is shown.
  public var categoryIdentifiers: [String]
  /// How its view is presented; a registration without a ratio is refused.
  public var attributes: ExtensionAttributes
  /// A service extension (UNNotificationServiceExtension): shown the app's mutable pushed
  /// notifications before delivery; its categories and attributes are not used.
  public var isService: Bool

  public init(extensionIdentifier: String, categoryIdentifiers: [String],
              attributes: ExtensionAttributes = ExtensionAttributes(initialContentSizeRatio: nil), isService: Bool = false) {
    self.isService = isService
    self.extensionIdentifier = extensionIdentifier
    self.categoryIdentifiers = categoryIdentifiers
    self.attributes = attributes
  }

  /// - Throws: INVALID_ARGUMENT `INVALID_IDENTIFIER` (an empty, long or control-character
  ///   identifier), `EXTENSION_CATEGORIES_REQUIRED`, `TOO_MANY_IDENTIFIERS`, and what
  ///   `ExtensionAttributes.validate` throws (`CONTENT_SIZE_RATIO_REQUIRED`,
  ///   `INVALID_CONTENT_SIZE_RATIO`, `INVALID_MEDIA_BUTTON_FRAME`, `INVALID_TINT_COLOR`).
  public func validate() throws(ChimeError) {
    try RequestValidator.validateIdentifier(extensionIdentifier, field: "extension_identifier")
    if isService { return }
    guard !categoryIdentifiers.isEmpty else {
      throw ChimeError(.extensionCategoriesRequired, "name the categories the extension handles", field: "category_identifiers")
    }
    guard categoryIdentifiers.count <= Limits.categoriesPerAppMax else {
      throw ChimeError(.tooManyIdentifiers, "at most \(Limits.categoriesPerAppMax) categories per extension", field: "category_identifiers")
    }
    for (i, category) in categoryIdentifiers.enumerated() {
      try RequestValidator.validateIdentifier(category, field: "category_identifiers[\(i)]")
    }
    try attributes.validate()
  }

  /// True when the extension is shown notifications of `category` (never for no category).
  public func handles(_ category: String) -> Bool {
    !isService && !category.isEmpty && categoryIdentifiers.contains { $0.utf8.elementsEqual(category.utf8) }
  }

  /// The identifiers of the registrations that handle `category`, sorted.
  public static func routes(_ category: String, among registrations: [ExtensionRegistration]) -> [String] {
    registrations.filter { $0.handles(category) }.map(\.extensionIdentifier).sorted()
  }
}
