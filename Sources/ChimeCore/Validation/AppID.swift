/// Validates app identifiers: reverse-DNS style, e.g. `org.example.tea`.
public enum AppID {
  /// Throws INVALID_ARGUMENT `INVALID_APP_ID` unless `id` is 1...255 bytes of
  /// `[A-Za-z0-9._-]` that neither starts nor ends with a dot and has no `..`.
  public static func validate(_ id: String) throws(ChimeError) {
    let bytes = Array(id.utf8)
    guard !bytes.isEmpty else {
      throw ChimeError(.invalidAppID, "app id is empty: pass --app or set CHIME_APP", field: "app_id")
    }
    guard bytes.count <= Limits.appIDMaxBytes else {
      throw ChimeError(.invalidAppID, "app id is longer than \(Limits.appIDMaxBytes) bytes", field: "app_id")
    }
    let allowed = bytes.allSatisfy { b in
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
    }
    guard allowed, bytes.first != 0x2E, bytes.last != 0x2E, !id.contains("..") else {
      throw ChimeError(.invalidAppID, "app id must be reverse-DNS style ([A-Za-z0-9._-], no leading, trailing or double dots)", field: "app_id")
    }
  }
}
