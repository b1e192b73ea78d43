import CLinux
import Glibc

/// A detached POSIX thread with a name, for the client's reader and deadline threads.
/// Foundation's `Thread` is not in FoundationEssentials: using it would link all of Foundation
/// and CoreFoundation (and CoreFoundation's start-up) into every `chime` command.
public enum SystemThread {
  private final class Start {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// Runs `body` on a new detached thread named `name` (cut to the 15 bytes Linux keeps).
  public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { argument in
      guard let argument else { return nil }
      let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
      _ = pthread_setname_np(pthread_self(), String(decoding: start.name.utf8.prefix(15), as: UTF8.self))
      start.body()
      return nil
    }, start)
    // Only when the process is out of threads or memory: nothing a client could go on without.
    precondition(rc == 0, "pthread_create failed: \(Errno(rc))")
    pthread_detach(thread)
  }
}
