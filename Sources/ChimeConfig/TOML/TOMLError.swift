/// Why a document is not valid TOML, and where: 1-based line and column (in characters).
public struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  /// The dotted key the error is about, when it is about one (a duplicate key, a table
  /// defined twice).
  public let key: String?
  public let message: String

  public var description: String {
    "\(line):\(column): " + (key.map { "\($0): " } ?? "") + message
  }
}
