import ArgumentParser
import ChimeCore
import FoundationEssentials

/// The JSON form of categories that `chime categories set` reads and `chime categories list
/// --json` prints (the README documents it): an array of
/// `{"identifier", "actions": [{"identifier", "title", "options": [...], "icon", "textInput":
/// {"buttonTitle", "placeholder"}}], "intentIdentifiers", "options": [...],
/// "hiddenPreviewsBodyPlaceholder", "summaryFormat", "snooze": ["5m", "10m", "1h"]}`. Only
/// `identifier` (and an action's
/// `title`) is required; unknown keys and option names are refused, naming where they are.
enum CategoryJSON {
  static let categoryOptions: [(String, NotificationCategory.Options)] = [
    ("customDismissAction", .customDismissAction), ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
    ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle),
  ]
  static let actionOptions: [(String, NotificationAction.Options)] = [
    ("authenticationRequired", .authenticationRequired), ("destructive", .destructive), ("foreground", .foreground),
  ]

  // MARK: Printing

  static func object(_ c: NotificationCategory) -> [String: Any] {
    var object: [String: Any] = ["identifier": c.identifier, "actions": c.actions.map(object)]
    let options = categoryOptions.filter { c.options.contains($0.1) }.map(\.0)
    if !options.isEmpty { object["options"] = options }
    if !c.intentIdentifiers.isEmpty { object["intentIdentifiers"] = c.intentIdentifiers }
    if !c.hiddenPreviewsBodyPlaceholder.isEmpty { object["hiddenPreviewsBodyPlaceholder"] = c.hiddenPreviewsBodyPlaceholder }
    if !c.summaryFormat.isEmpty { object["summaryFormat"] = c.summaryFormat }
    if !c.snoozeSeconds.isEmpty { object["snooze"] = c.snoozeSeconds.map { DurationText.exact(Double($0)) } }
    return object
  }

  static func object(_ a: NotificationAction) -> [String: Any] {
    var object: [String: Any] = ["identifier": a.identifier, "title": a.title]
    let options = actionOptions.filter { a.options.contains($0.1) }.map(\.0)
    if !options.isEmpty { object["options"] = options }
    if !a.icon.isEmpty { object["icon"] = a.icon }
    if let input = a.textInput { object["textInput"] = ["buttonTitle": input.buttonTitle, "placeholder": input.placeholder] }
    return object
  }

  // MARK: Reading

  /// Parses the file's bytes; a ValidationError names the offending place (`[0].actions[2].options[1]`).
  static func categories(from data: Data) throws -> [NotificationCategory] {
    let root: Any
    do {
      root = try JSONValue.parse(data).any
    } catch DecodingError.dataCorrupted(let context) {
      let cause = context.underlyingError.map { " (\($0))" } ?? ""
      throw ValidationError("categories file is not JSON: \(context.debugDescription)\(cause)")
    } catch {
      throw ValidationError("categories file is not JSON: \(error)")
    }
    guard let list = root as? [Any] else { throw ValidationError("categories file must hold a JSON array of categories") }
    return try list.enumerated().map { i, item in try category(item, "[\(i)]") }
  }

  private static func category(_ value: Any, _ path: String) throws -> NotificationCategory {
    let o = try dictionary(value, path, keys: ["identifier", "actions", "intentIdentifiers", "options", "hiddenPreviewsBodyPlaceholder", "summaryFormat",
                                               "snooze"])
    let actions = try array(o["actions"], "\(path).actions").enumerated().map { j, a in try action(a, "\(path).actions[\(j)]") }
    // Durations in the CLI's one grammar ("5m", "1h"); the daemon checks the bounds and the
    // count (INVALID_SNOOZE_DURATION, TOO_MANY_SNOOZE_DURATIONS).
    let snooze = try array(o["snooze"], "\(path).snooze").enumerated().map { k, s -> Int64 in
      let text = try string(s, "\(path).snooze[\(k)]", required: true)
      return Int64(try DurationOption.parse(text, option: "\(path).snooze[\(k)]", DurationInput.Bounds(noun: "snooze", wholeSeconds: true)))
    }
    var category = NotificationCategory(
      identifier: try string(o["identifier"], "\(path).identifier", required: true),
      actions: actions,
      intentIdentifiers: try array(o["intentIdentifiers"], "\(path).intentIdentifiers").enumerated().map { k, s in
        try string(s, "\(path).intentIdentifiers[\(k)]", required: true)
      },
      options: try options(o["options"], "\(path).options", names: categoryOptions),
      hiddenPreviewsBodyPlaceholder: try string(o["hiddenPreviewsBodyPlaceholder"], "\(path).hiddenPreviewsBodyPlaceholder"),
      summaryFormat: try string(o["summaryFormat"], "\(path).summaryFormat"))
    category.snoozeSeconds = snooze
    return category
  }

  private static func action(_ value: Any, _ path: String) throws -> NotificationAction {
    let o = try dictionary(value, path, keys: ["identifier", "title", "options", "icon", "textInput"])
    var input: NotificationAction.TextInput?
    if let t = o["textInput"], !(t is JSONValue.Null) {
      let ti = try dictionary(t, "\(path).textInput", keys: ["buttonTitle", "placeholder"])
      input = .init(buttonTitle: try string(ti["buttonTitle"], "\(path).textInput.buttonTitle"),
                    placeholder: try string(ti["placeholder"], "\(path).textInput.placeholder"))
    }
    return NotificationAction(identifier: try string(o["identifier"], "\(path).identifier", required: true),
                              title: try string(o["title"], "\(path).title", required: true),
                              options: try options(o["options"], "\(path).options", names: actionOptions),
                              icon: try string(o["icon"], "\(path).icon"),
                              textInput: input)
  }

  private static func dictionary(_ value: Any, _ path: String, keys: Set<String>) throws -> [String: Any] {
    guard let o = value as? [String: Any] else { throw ValidationError("\(path) must be a JSON object") }
    if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
      throw ValidationError("\(path) has an unknown key \"\(unknown)\" (known: \(keys.sorted().joined(separator: ", ")))")
    }
    return o
  }

  private static func array(_ value: Any?, _ path: String) throws -> [Any] {
    guard let value, !(value is JSONValue.Null) else { return [] }
    guard let list = value as? [Any] else { throw ValidationError("\(path) must be a JSON array") }
    return list
  }

  private static func string(_ value: Any?, _ path: String, required: Bool = false) throws -> String {
    guard let value, !(value is JSONValue.Null) else {
      if required { throw ValidationError("\(path) is missing") }
      return ""
    }
    guard let s = value as? String else { throw ValidationError("\(path) must be a string") }
    return s
  }

  private static func options<O: OptionSet>(_ value: Any?, _ path: String, names: [(String, O)]) throws -> O where O.Element == O {
    var result: O = []
    for (i, item) in try array(value, path).enumerated() {
      let name = try string(item, "\(path)[\(i)]", required: true)
      guard let option = names.first(where: { $0.0 == name })?.1 else {
        throw ValidationError("\(path)[\(i)]: unknown option \"\(name)\" (known: \(names.map(\.0).joined(separator: ", ")))")
      }
      result.insert(option)
    }
    return result
  }
}
