/// Sizes and counts every request must stay within. Bytes from clients are untrusted.
public enum Limits {
  public static let identifierMaxBytes = 256
  public static let appIDMaxBytes = 255
  public static let textMaxBytes = 4096
  public static let userInfoMaxBytes = 16 * 1024
  public static let userInfoMaxDepth = 32
  public static let attachmentsMax = 10
  public static let identifiersPerCallMax = 1000
  public static let pageSizeDefault = 100
  public static let pageSizeMax = 1000
  /// A repeating time-interval trigger must repeat at least this often.
  public static let minimumRepeatInterval: Double = 60
  /// No trigger may fire further out than this (about 100 years).
  public static let maximumIntervalSeconds: Double = 100 * 366 * 24 * 3600
}
