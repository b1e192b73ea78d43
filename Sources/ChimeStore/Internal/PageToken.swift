import ChimeCore
import ExtrasBase64

/// The opaque position a listing resumes after: the sort key of the last item of a page.
///
/// Encoded as base64url (no padding) of a kind byte, the instant as 8 big-endian bytes and the
/// identifier's UTF-8. Tokens come back from clients, so decoding checks everything and fails
/// with INVALID_ARGUMENT `INVALID_PAGE_TOKEN`.
struct PageToken: Equatable {
  enum Kind: UInt8 {
    case pending = 0x50  // "P"
    case delivered = 0x44  // "D"
    /// A snoozed notification in the pending listing (after a pending request of the same key).
    case snoozed = 0x53  // "S"
  }

  var kind: Kind
  var instant: Int64
  var identifier: String

  static let maxLength = 1024

  static let invalid = ChimeError(.invalidPageToken, "page token is not one this listing returned", field: "page_token")

  var encoded: String {
    var bytes: [UInt8] = [kind.rawValue]
    withUnsafeBytes(of: instant.bigEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: identifier.utf8)
    return Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
  }

  /// nil for an empty token (the first page). `kinds`: the positions the listing resumes from.
  static func decode(_ token: String, as kinds: Kind...) throws(ChimeError) -> PageToken? {
    if token.isEmpty { return nil }
    guard token.utf8.count <= maxLength,
          token.utf8.allSatisfy({ b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
          })
    else { throw invalid }
    guard let bytes = try? Base64.decode(string: token, options: [.base64UrlAlphabet, .omitPaddingCharacter]),
          bytes.count > 9, let kind = Kind(rawValue: bytes[0]), kinds.contains(kind)
    else { throw invalid }
    var bits: UInt64 = 0
    for b in bytes[1..<9] { bits = (bits << 8) | UInt64(b) }
    let instant = Int64(bitPattern: bits)
    guard let identifier = String(validating: bytes[9...], as: UTF8.self),
          identifier.utf8.count <= Limits.identifierMaxBytes
    else { throw invalid }
    return PageToken(kind: kind, instant: instant, identifier: identifier)
  }
}
