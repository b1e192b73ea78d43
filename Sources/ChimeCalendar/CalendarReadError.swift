/// Why an item file was not read: the message names what is wrong (the caller adds the path).
public struct CalendarReadError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
