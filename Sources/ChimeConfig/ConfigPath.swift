/// How chimed reads a path setting (`ConfigKey.isPath`): absolute, or starting with `~` for the
/// home directory. Pure: `$HOME` is given.
///
/// A relative path would be read against chimed's working directory, which under systemd or
/// D-Bus activation is `/` or wherever the manager was started: never what was meant. So, as
/// systemd does for `~/` in user units, `~` and `~/...` are expanded with `$HOME`, and every
/// other path that does not start with `/` is refused. `~name/...` (another user's home) is
/// refused too: chimed serves one user, and its paths live in that user's home or are spelled
/// out.
public enum ConfigPath {
  /// Why a path setting cannot be used, as the end of an error message after its key.
  public struct Refusal: Error, Equatable, Sendable {
    public let message: String
  }

  /// `text` made absolute: `~` → `home`, `~/rest` → `home/rest`, `/...` as it is.
  ///
  /// - Throws: a `Refusal` for a relative path, `~name/...`, or `~` when `home` is nil, empty
  ///   or not absolute.
  public static func resolve(_ text: String, home: String?) throws(Refusal) -> String {
    if text.hasPrefix("/") { return text }
    guard text.hasPrefix("~") else {
      throw Refusal(message: "\"\(text)\" is not an absolute path (give one starting with / or ~/; a relative path would be read against chimed's working directory)")
    }
    let rest = text.dropFirst()
    guard rest.isEmpty || rest.hasPrefix("/") else {
      throw Refusal(message: "\"\(text)\": ~name/ (another user's home) is not expanded; give the absolute path")
    }
    guard let home, !home.isEmpty else {
      throw Refusal(message: "\"\(text)\" starts with ~ but HOME is not set; give the absolute path or set HOME")
    }
    guard home.hasPrefix("/") else {
      throw Refusal(message: "\"\(text)\" starts with ~ but HOME (\"\(home)\") is not an absolute path")
    }
    let base = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
    if rest.isEmpty { return base }
    return base == "/" ? String(rest) : base + rest
  }
}
