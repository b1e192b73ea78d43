/// Sizes and counts every request must stay within. Bytes from clients are untrusted.
public enum Limits {
  public static let identifierMaxBytes = 256
  public static let appIDMaxBytes = 255
  public static let textMaxBytes = 4096
  public static let userInfoMaxBytes = 16 * 1024
  public static let userInfoMaxDepth = 32
  public static let attachmentsMax = 10
  /// Default bytes of attachments one app may keep in the store.
  public static let attachmentQuotaDefault: Int64 = 100_000_000
  /// Pending requests one app may hold (Apple silently keeps the soonest 64; Chime refuses the
  /// next add with `PENDING_LIMIT` instead, past a generous default).
  public static let pendingPerAppDefault = 1_000_000
  /// Group containers one app may register.
  public static let groupContainersMax = 32
  /// Bytes of one registered directory path.
  public static let pathMaxBytes = 4095
  public static let identifiersPerCallMax = 1000
  /// Categories one app may declare.
  public static let categoriesPerAppMax = 128
  /// Actions one category may offer (UNNotificationCategory shows at most 10).
  public static let actionsPerCategoryMax = 10
  /// Intent identifiers one category may name.
  public static let intentIdentifiersPerCategoryMax = 32
  /// Bytes of an action's title, text-input button title or placeholder, or an icon name.
  public static let actionTextMaxBytes = 256
  /// The largest frame (its body after the 4-byte length) a peer accepts unless configured
  /// otherwise: 1 MiB. The frame decoder, the Swift client and chimed (`--max-frame-bytes`)
  /// default to it.
  public static let maxFrameBytesDefault = 1 << 20
  public static let pageSizeDefault = 100
  public static let pageSizeMax = 1000
  /// A repeating time-interval trigger must repeat at least this often.
  public static let minimumRepeatInterval: Double = 60
  /// No trigger may fire further out than this (about 100 years).
  public static let maximumIntervalSeconds: Double = 100 * 366 * 24 * 3600
}
