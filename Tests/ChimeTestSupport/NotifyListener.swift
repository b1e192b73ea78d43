import ChimeSystem
import Foundation

/// Stands in for systemd's `NOTIFY_SOCKET`: a datagram socket in a test's directory that
/// collects what the daemon reports (`READY=1`, `STATUS=...`, `STOPPING=1`).
public final class NotifyListener: @unchecked Sendable {
  public let path: String
  private let fd: FileDescriptor
  public private(set) var received: [String] = []

  public init(directory: TemporaryDirectory) throws {
    path = directory.file("notify")
    fd = try UnixSocket.bindDatagram(path: path)
  }

  deinit { fd.close() }

  /// Waits (bounded) for a message holding the line `line`; returns every line received so far.
  @discardableResult
  public func waitFor(_ line: String, seconds: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      if received.contains(where: { $0.split(separator: "\n").contains(Substring(line)) }) { return true }
      guard UnixSocket.waitReadable(fd, millis: 200) else { continue }
      let n = buffer.withUnsafeMutableBytes { (try? UnixSocket.receive(fd, into: $0)) ?? 0 }
      if n > 0 { received.append(String(decoding: buffer[..<n], as: UTF8.self)) }
    }
    return received.contains(where: { $0.split(separator: "\n").contains(Substring(line)) })
  }
}
