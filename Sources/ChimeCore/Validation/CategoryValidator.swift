/// Checks an app's categories before they replace the stored ones. Pure.
///
/// Every failure is INVALID_ARGUMENT with a stable reason and the field path, e.g.
/// `categories[0].actions[2].identifier`.
public enum CategoryValidator {
  /// - Throws: INVALID_ARGUMENT `TOO_MANY_CATEGORIES`, `DUPLICATE_CATEGORY_IDENTIFIER`,
  ///   `INVALID_IDENTIFIER`, `TOO_MANY_ACTIONS`, `DUPLICATE_ACTION_IDENTIFIER`,
  ///   `RESERVED_ACTION_IDENTIFIER`, `TOO_MANY_IDENTIFIERS`, `FIELD_TOO_LONG` or
  ///   `FIELD_CONTAINS_NUL`.
  public static func validate(_ categories: [NotificationCategory]) throws(ChimeError) {
    guard categories.count <= Limits.categoriesPerAppMax else {
      throw ChimeError(.tooManyCategories, "at most \(Limits.categoriesPerAppMax) categories per app (got \(categories.count))", field: "categories")
    }
    var seen: [String] = []
    for (i, category) in categories.enumerated() {
      let field = "categories[\(i)]"
      try validate(category, field: field)
      // Compared as SQLite compares them (bytes), not by Swift's canonical equivalence.
      guard !seen.contains(where: { $0.utf8.elementsEqual(category.identifier.utf8) }) else {
        throw ChimeError(.duplicateCategoryIdentifier, "category identifier \"\(category.identifier)\" is used twice", field: "\(field).identifier")
      }
      seen.append(category.identifier)
    }
  }

  /// One category, its fields named under `field`.
  public static func validate(_ category: NotificationCategory, field: String) throws(ChimeError) {
    try RequestValidator.validateIdentifier(category.identifier, field: "\(field).identifier")
    try text(category.hiddenPreviewsBodyPlaceholder, Limits.textMaxBytes, field: "\(field).hidden_previews_body_placeholder")
    try text(category.summaryFormat, Limits.textMaxBytes, field: "\(field).summary_format")
    guard category.intentIdentifiers.count <= Limits.intentIdentifiersPerCategoryMax else {
      throw ChimeError(.tooManyIdentifiers, "at most \(Limits.intentIdentifiersPerCategoryMax) intent identifiers per category", field: "\(field).intent_identifiers")
    }
    for (i, intent) in category.intentIdentifiers.enumerated() {
      try RequestValidator.validateIdentifier(intent, field: "\(field).intent_identifiers[\(i)]")
    }
    guard category.actions.count <= Limits.actionsPerCategoryMax else {
      throw ChimeError(.tooManyActions, "at most \(Limits.actionsPerCategoryMax) actions per category (got \(category.actions.count))", field: "\(field).actions")
    }
    var seen: [String] = []
    for (j, action) in category.actions.enumerated() {
      let actionField = "\(field).actions[\(j)]"
      try validate(action, field: actionField)
      guard !seen.contains(where: { $0.utf8.elementsEqual(action.identifier.utf8) }) else {
        throw ChimeError(.duplicateActionIdentifier, "action identifier \"\(action.identifier)\" is used twice in category \"\(category.identifier)\"",
                         field: "\(actionField).identifier")
      }
      seen.append(action.identifier)
    }
    try SnoozeDuration.validateOffered(category.snoozeSeconds, field: "\(field).snooze_seconds")
  }

  /// One action, its fields named under `field`.
  public static func validate(_ action: NotificationAction, field: String) throws(ChimeError) {
    try RequestValidator.validateIdentifier(action.identifier, field: "\(field).identifier")
    guard action.identifier != NotificationAction.defaultIdentifier, action.identifier != NotificationAction.dismissIdentifier,
          action.identifier != NotificationAction.snoozeIdentifier else {
      throw ChimeError(.reservedActionIdentifier, "\"\(action.identifier)\" is reserved for opening, dismissing and snoozing a notification", field: "\(field).identifier")
    }
    try text(action.title, Limits.actionTextMaxBytes, field: "\(field).title")
    try text(action.icon, Limits.actionTextMaxBytes, field: "\(field).icon")
    if let input = action.textInput {
      try text(input.buttonTitle, Limits.actionTextMaxBytes, field: "\(field).text_input.button_title")
      try text(input.placeholder, Limits.actionTextMaxBytes, field: "\(field).text_input.placeholder")
    }
  }

  static func text(_ value: String, _ limit: Int, field: String) throws(ChimeError) {
    let bytes = value.utf8.count
    guard bytes <= limit else {
      throw ChimeError(.fieldTooLong, "\(bytes) bytes; the limit is \(limit)", field: field)
    }
    guard !value.containsNUL else {
      throw ChimeError(.fieldContainsNUL, "contains a NUL character", field: field)
    }
  }
}
