import Glibc

/// Opens a file the way attachments and sounds are opened, by the daemon and by the CLI's
/// preflight checks alike: once, read-only, without following a symlink in the last component,
/// without blocking (a FIFO), and only if `fstat` says it is a regular file. The descriptor then
/// feeds `FileDescriptorByteSource`, so what is inspected is what was opened.
public struct RegularFile: Sendable {
  /// The open descriptor, read-only; `close()` closes it.
  public let descriptor: FileDescriptor
  /// Bytes, from the `fstat` made at the open.
  public let size: Int
  /// Device and inode of the opened file, to tell later whether a path still names it.
  public let device: UInt64
  public let inode: UInt64
  /// How many names (hard links) the file has.
  public let linkCount: UInt64
  /// What `fstat` said at the open, all of it.
  public let status: FileStatus

  /// Why a path cannot be used, in words that name it.
  public struct OpenFailure: Error, Sendable {
    /// Missing (also a path through a non-directory), a symlink, there but not a regular
    /// file, or there but not readable.
    public enum Kind: Sendable { case missing, symlink, notRegular, unreadable }
    public var kind: Kind
    /// Names the path and says what is wrong.
    public var message: String
    /// The errno of the failed call (0 when the file opened but is not a regular file).
    public var errno: Int32
  }

  /// Opens `path`; the caller owns the descriptor (`close()`).
  ///
  /// - Throws: `OpenFailure`: `.missing` (no such file, or a component is not a directory),
  ///   `.symlink` (the last component is one), `.notRegular` (a directory, FIFO, socket or
  ///   device), `.unreadable` (permission, or any other errno).
  public static func open(_ path: String) throws(OpenFailure) -> RegularFile {
    let fd = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw failure(path, errno) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let code = errno
      Glibc.close(fd)
      throw OpenFailure(kind: .unreadable, message: "\(path) cannot be examined (\(Errno(code)))", errno: code)
    }
    let status = FileStatus(st)
    guard status.isRegular else {
      Glibc.close(fd)
      throw OpenFailure(kind: .notRegular, message: "\(path) is not a regular file (it is \(describe(status.kind)))", errno: 0)
    }
    return RegularFile(descriptor: FileDescriptor(rawValue: fd), size: Int(status.size), device: status.device,
                       inode: status.inode, linkCount: status.linkCount, status: status)
  }

  /// Opens `path`, hands `body` a byte source over it and closes it afterwards.
  ///
  /// - Throws: `OpenFailure` as `open(_:)` does; `body` itself does not throw.
  public static func withByteSource<T>(_ path: String, _ body: (FileDescriptorByteSource) -> T) throws(OpenFailure) -> T {
    let file = try open(path)
    defer { file.close() }
    return body(file.byteSource)
  }

  /// The opened bytes, read with `pread(2)` up to `size`.
  public var byteSource: FileDescriptorByteSource { FileDescriptorByteSource(fileDescriptor: descriptor.rawValue, count: size) }

  /// Closes the descriptor; the file's byte sources are unusable afterwards.
  public func close() { descriptor.close() }

  private static func failure(_ path: String, _ code: Int32) -> OpenFailure {
    switch code {
    case ENOENT:
      return OpenFailure(kind: .missing, message: "\(path) does not exist", errno: code)
    case ENOTDIR:
      return OpenFailure(kind: .missing, message: "\(path) does not exist (a component of the path is not a directory)", errno: code)
    case ELOOP:
      if FileSystem.lstatus(path)?.isSymbolicLink == true {
        return OpenFailure(kind: .symlink, message: "\(path) is a symbolic link; symlinks are not followed, give the file itself", errno: code)
      }
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be opened (too many levels of symbolic links)", errno: code)
    case EACCES, EPERM:
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be read (permission denied)", errno: code)
    default:
      return OpenFailure(kind: .unreadable, message: "\(path) cannot be opened (\(Errno(code)))", errno: code)
    }
  }

  private static func describe(_ kind: FileStatus.Kind) -> String {
    switch kind {
    case .directory: "a directory"
    case .fifo: "a FIFO"
    case .socket: "a socket"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .regular, .symbolicLink, .unknown: "not a file"
    }
  }
}
