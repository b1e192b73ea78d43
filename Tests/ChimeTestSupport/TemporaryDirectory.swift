import Foundation
import Glibc

/// A fresh directory under /tmp (or `parent`), removed when released. Short, so a socket path
/// inside it stays well under the 107-byte limit.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init(prefix: String = "chime", in parent: String = "/tmp") {
    var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed: \(String(cString: strerror(errno)))")
    path = String(cString: made!)
  }

  public func file(_ name: String) -> String { path + "/" + name }

  public var socketPath: String { file("chimed.sock") }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
