import ChimeCore

/// How tables and one-line summaries name a notification's content. A pushed alert may carry
/// localization keys instead of text (`loc-key`, `title-loc-key`, ...): chimed has no string
/// tables to resolve them, so where there is no plain text the key is shown with its
/// arguments, `GAME_PLAY_REQUEST_FORMAT(Jenna, Frank)`.
enum ContentText {
  /// `KEY(a, b)`; empty when there is no key.
  static func localized(_ key: String, _ arguments: [String]) -> String {
    key.isEmpty ? "" : "\(key)(\(arguments.joined(separator: ", ")))"
  }

  /// The title, else `title-loc-key(args…)`; when the content has no plain text at all (no
  /// title, subtitle or body), the subtitle's key, else the body's `loc-key(args…)`.
  static func title(_ c: NotificationContent) -> String {
    if !c.title.isEmpty { return c.title }
    guard let l = c.alertLocalization else { return "" }
    if !l.titleLocKey.isEmpty { return localized(l.titleLocKey, l.titleLocArgs) }
    guard c.subtitle.isEmpty && c.body.isEmpty else { return "" }
    if !l.subtitleLocKey.isEmpty { return localized(l.subtitleLocKey, l.subtitleLocArgs) }
    return localized(l.locKey, l.locArgs)
  }

  /// The title, else the body (each with its key where it has no text): what a one-line
  /// summary quotes.
  static func headline(_ c: NotificationContent) -> String {
    let title = title(c)
    if !title.isEmpty { return title }
    if !c.body.isEmpty { return c.body }
    return c.alertLocalization.map { localized($0.locKey, $0.locArgs) } ?? ""
  }

  /// The localization keys and arguments as `--json` prints them: the keys given, each with
  /// its arguments (`loc_key`, `loc_args`, `title_loc_key`, ...).
  static func json(_ l: AlertLocalization) -> [String: Any] {
    var object: [String: Any] = [:]
    for (name, key, arguments) in [("title_loc", l.titleLocKey, l.titleLocArgs), ("subtitle_loc", l.subtitleLocKey, l.subtitleLocArgs),
                                   ("loc", l.locKey, l.locArgs)] where !key.isEmpty || !arguments.isEmpty {
      object["\(name)_key"] = key
      object["\(name)_args"] = arguments
    }
    return object
  }
}
