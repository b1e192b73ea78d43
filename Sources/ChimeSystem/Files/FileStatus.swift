import Glibc

/// What `stat(2)` says about a file, in the terms the daemon checks.
public struct FileStatus: Hashable, Sendable {
  /// The file type (`st_mode & S_IFMT`).
  public enum Kind: Hashable, Sendable {
    case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown
  }

  /// What sort of file it is.
  public var kind: Kind
  /// Size in bytes (for a sparse file, what it claims).
  public var size: Int64
  /// The device and inode: together, which file it is.
  public var device: UInt64
  public var inode: UInt64
  /// How many names (hard links) the file has.
  public var linkCount: UInt64
  /// The uid of the file's owner.
  public var ownerID: UInt32
  /// The permission bits, with set-uid, set-gid and sticky (`mode & 07777`).
  public var permissions: UInt32
  /// When its content last changed (`st_mtim`), in nanoseconds since the epoch.
  public var modifiedNanos: Int64

  init(_ st: stat) {
    kind = Self.kind(st.st_mode)
    size = Int64(st.st_size)
    device = UInt64(st.st_dev)
    inode = UInt64(st.st_ino)
    linkCount = UInt64(st.st_nlink)
    ownerID = UInt32(st.st_uid)
    permissions = UInt32(st.st_mode) & 0o7777
    modifiedNanos = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
  }

  /// A regular file; a directory; a symbolic link (seen only without following it).
  public var isRegular: Bool { kind == .regular }
  public var isDirectory: Bool { kind == .directory }
  public var isSymbolicLink: Bool { kind == .symbolicLink }
  /// A sticky directory (like /tmp) lets only the owner of a file or of the directory remove it.
  public var isSticky: Bool { permissions & UInt32(S_ISVTX) != 0 }

  private static func kind(_ mode: mode_t) -> Kind {
    switch mode & S_IFMT {
    case S_IFREG: .regular
    case S_IFDIR: .directory
    case S_IFLNK: .symbolicLink
    case S_IFIFO: .fifo
    case S_IFSOCK: .socket
    case S_IFCHR: .characterDevice
    case S_IFBLK: .blockDevice
    default: .unknown
    }
  }
}
