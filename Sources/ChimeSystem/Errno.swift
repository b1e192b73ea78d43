import Glibc

/// A failed system call's `errno`, so callers outside this target can tell causes apart and
/// word them without importing Glibc. Its description is the C library's text
/// (`strerror`), e.g. "No such file or directory".
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The `errno` value, e.g. `ENOENT`.
  public var code: Int32

  public init(_ code: Int32) { self.code = code }

  /// The `errno` the last failed call on this thread left.
  static var current: Errno { Errno(errno) }

  /// The C library's words for it.
  public var description: String { String(cString: strerror(code)) }

  /// ENOENT.
  public static let noSuchFile = Errno(ENOENT)
  /// ENOTDIR: a name on the way to a path is not a directory.
  public static let notADirectory = Errno(ENOTDIR)
  /// EEXIST: the name is taken.
  public static let fileExists = Errno(EEXIST)
  /// ENOSPC: the file system is full.
  public static let noSpace = Errno(ENOSPC)
  /// EDQUOT: the user's disk quota is used up.
  public static let quotaExceeded = Errno(EDQUOT)
  /// ECONNREFUSED: nothing listens on a socket.
  public static let connectionRefused = Errno(ECONNREFUSED)
  /// ENAMETOOLONG.
  public static let nameTooLong = Errno(ENAMETOOLONG)
}
