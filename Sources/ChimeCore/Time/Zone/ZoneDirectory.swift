import ChimeZoneFiles
import Synchronization

/// Zones by IANA identifier from a zoneinfo tree of TZif files (the system's is
/// `/usr/share/zoneinfo`), read on first use and kept for the life of the process (a few
/// kilobytes each). Named zones are data of a request, checked wherever a request is, so the
/// domain reads tzdata as Foundation's own `TimeZone` reads its zone data: through
/// `ChimeZoneFiles`, the module below ChimeCore that makes that one system call. The standard
/// library's `Mutex` guards the cache.
public final class ZoneDirectory: Sendable {
  /// Why a zone was not found.
  public struct LookupError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
  }

  public let root: String
  private let cache = Mutex<[String: ZoneTable]>([:])

  public init(root: String) {
    self.root = root
  }

  public static let system = ZoneDirectory(root: "/usr/share/zoneinfo")

  /// The names UTC goes by in tzdata: known even where no zoneinfo files are installed.
  static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Etc/Zulu", "Universal", "Zulu"]

  /// The zone called `id`, or nil when there is none or its data is refused.
  public func zone(named id: String) -> Zone? {
    try? load(id)
  }

  /// The zone called `id`, or why not.
  public func load(_ id: String) throws(LookupError) -> Zone {
    if let table = cache.withLock({ $0[id] }) { return Zone(table: table) }
    try Self.check(id)
    let built: ZoneTable
    if let bytes = ZoneFiles.contents(root + "/" + id) {
      do { built = ZoneTable(identifier: id, data: try TZif.parse(bytes)) } catch {
        throw LookupError(reason: "\(root)/\(id): \(error.reason)")
      }
    } else if Self.utcNames.contains(id) {
      built = ZoneTable(identifier: id, fixed: 0)
    } else {
      throw LookupError(reason: "no zone \"\(id)\" in \(root)")
    }
    let table = cache.withLock { tables in
      if let existing = tables[id] { return existing }
      tables[id] = built
      return built
    }
    return Zone(table: table)
  }

  /// An identifier names a file inside the tree: relative, components of letters, digits and
  /// `_+-.` with no `.` or `..` component, at most 255 bytes; the tree's `posix/` and `right/`
  /// copies and its non-zone files are not zones of their own.
  static func check(_ id: String) throws(LookupError) {
    let bytes = Array(id.utf8)
    guard !bytes.isEmpty, bytes.count <= 255 else { throw LookupError(reason: "a zone name is 1 to 255 bytes") }
    for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      guard !component.isEmpty, !component.elementsEqual(".".utf8), !component.elementsEqual("..".utf8) else {
        throw LookupError(reason: "\"\(id)\" is not a zone name (empty, . or .. component)")
      }
      for b in component {
        let ok = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
          || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
          || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
        guard ok else { throw LookupError(reason: "\"\(id)\" is not a zone name (character \(b))") }
      }
    }
    let first = id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? id
    guard !["posix", "right"].contains(first), !["posixrules", "localtime"].contains(id) else {
      throw LookupError(reason: "\"\(id)\" is not a zone name")
    }
  }
}
