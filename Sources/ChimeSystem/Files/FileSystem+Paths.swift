import Glibc

extension FileSystem {
  /// The working directory (`getcwd(3)`); nil when it cannot be read (removed, or too long).
  public static var workingDirectory: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `path` made absolute against the working directory (not resolved: `..` and links stay).
  public static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    return (workingDirectory ?? ".") + "/" + path
  }

  /// The directory part of `path`: everything before its last `/` ("/" for a file at the root,
  /// "" for a bare name).
  public static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
