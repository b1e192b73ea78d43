import Glibc

/// A shared library loaded at run time (`dlopen(3)`, RTLD_NOW | RTLD_LOCAL), for a program that
/// needs a C library only for one rare command (`chime doctor` reads the store with SQLite).
/// Stays loaded for the life of the process.
public struct SharedLibrary: @unchecked Sendable {
  private let handle: UnsafeMutableRawPointer

  /// Loads `name` (e.g. `libsqlite3.so.0`), searched as the dynamic linker does.
  ///
  /// - Throws: the loader's words (`dlerror`) when it cannot be loaded.
  public init(_ name: String) throws(SharedLibrary.Failure) {
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      throw Failure(description: dlerror().map { String(cString: $0) } ?? "cannot load \(name)")
    }
    self.handle = handle
  }

  /// The function `name` as the C function type `F` (a `@convention(c)` type), or nil when the
  /// library has no such symbol. The caller names the right type: nothing can check it.
  public func function<F>(_ name: String, as type: F.Type) -> F? {
    dlsym(handle, name).map { unsafeBitCast($0, to: type) }
  }

  /// Why a library could not be loaded.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }
}
