#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a file the way attachments and sounds are opened, by the daemon and by the CLI's
/// preflight checks alike: once, read-only, without following a symlink in the last component,
/// without blocking (a FIFO), and only if `fstat` says it is a regular file. The descriptor then
/// feeds `FileDescriptorByteSource`, so what is inspected is what was opened.
public struct RegularFile: Sendable {
  public let fileDescriptor: Int32
  public let size: Int
  public let device: UInt64
  public let inode: UInt64
  /// How many names (hard links) the file has.
  public let linkCount: UInt64

  /// Why a path cannot be used, in words that name it.
  public struct OpenFailure: Error, Sendable {
    public enum Kind: Sendable { case missing, symlink, notRegular, unreadable }
    public var kind: Kind
    public var message: String
    /// The errno of the failed call (0 when the file opened but is not a regular file).
    public var errno: Int32
  }

  /// Opens `path`; the caller owns the descriptor (`close()`).
  public static func open(_ path: String) throws(OpenFailure) -> RegularFile {
    #if canImport(Glibc)
    let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    #else
    let fd = Darwin.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    #endif
    guard fd >= 0 else { throw failure(path, errno) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let code = errno
      closeDescriptor(fd)
      throw OpenFailure(kind: .unreadable, message: "\(path) cannot be examined (\(text(code)))", errno: code)
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      closeDescriptor(fd)
      throw OpenFailure(kind: .notRegular, message: "\(path) is not a regular file (it is \(kind(st.st_mode)))", errno: 0)
    }
    return RegularFile(fileDescriptor: fd, size: Int(st.st_size), device: UInt64(st.st_dev), inode: UInt64(st.st_ino),
                       linkCount: UInt64(st.st_nlink))
  }

  /// Opens `path`, hands `body` a byte source over it and closes it afterwards.
  public static func withByteSource<T>(_ path: String, _ body: (FileDescriptorByteSource) -> T) throws(OpenFailure) -> T {
    let file = try open(path)
    defer { file.close() }
    return body(file.byteSource)
  }

  public var byteSource: FileDescriptorByteSource { FileDescriptorByteSource(fileDescriptor: fileDescriptor, count: size) }

  public func close() { closeDescriptor(fileDescriptor) }

  private static func failure(_ path: String, _ code: Int32) -> OpenFailure {
    switch code {
    case ENOENT:
      return OpenFailure(kind: .missing, message: "\(path) does not exist", errno: code)
    case ENOTDIR:
      return OpenFailure(kind: .missing, message: "\(path) does not exist (a component of the path is not a directory)", errno: code)
    case ELOOP:
      var st = stat()
      if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
        return OpenFailure(kind: .symlink, message: "\(path) is a symbolic link; symlinks are not followed, give the file itself", errno: code)
      }
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be opened (too many levels of symbolic links)", errno: code)
    case EACCES, EPERM:
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be read (permission denied)", errno: code)
    default:
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be opened (\(text(code)))", errno: code)
    }
  }

  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    default: "not a file"
    }
  }

  private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}

private func closeDescriptor(_ fd: Int32) {
  #if canImport(Glibc)
  _ = Glibc.close(fd)
  #else
  _ = Darwin.close(fd)
  #endif
}
