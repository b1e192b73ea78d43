/// Validates app identifiers: reverse-DNS style, e.g. `org.example.tea`.
public enum AppID {
  /// Throws INVALID_ARGUMENT `INVALID_APP_ID` unless `id` is 1...255 bytes of
  /// `[A-Za-z0-9._-]` that neither starts nor ends with a dot and has no `..`.
  public static func validate(_ id: String) throws(ChimeError) {
    let bytes = id.utf8
    guard !bytes.isEmpty else {
      throw ChimeError(.invalidAppID, "app id is empty: pass --app or set CHIME_APP", field: "app_id")
    }
    guard bytes.count <= Limits.appIDMaxBytes else {
      throw ChimeError(.invalidAppID, "app id is longer than \(Limits.appIDMaxBytes) bytes (\(bytes.count))", field: "app_id")
    }
    // One pass over the bytes (this runs on every call: no String searching).
    var previous: UInt8 = 0x2E  // as if a dot came before: a leading dot is refused below
    var allowed = true
    for b in bytes {
      let ok = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
      if !ok || (b == 0x2E && previous == 0x2E) {
        allowed = false
        break
      }
      previous = b
    }
    guard allowed, previous != 0x2E else {
      throw ChimeError(.invalidAppID, "app id \(quoted(id)) must be reverse-DNS style ([A-Za-z0-9._-], no leading, trailing or double dots), e.g. org.example.tea",
                       field: "app_id")
    }
  }

  /// `id` in double quotes with control characters, quotes and backslashes escaped, cut to
  /// 64 characters: safe to show whatever the caller sent.
  static func quoted(_ id: String) -> String {
    let cut = id.count > 64 ? String(id.prefix(64)) + "…" : id
    return cut.debugDescription
  }
}
