public import ChimeCore
import ChimeSystem

/// A calendar on disk: a vdir (a directory of `.ics` files, one item each, as vdirsyncer,
/// khal and todoman keep them) or one `.ics` file.
public enum CalendarCollection {
  /// One file's outcome.
  public struct Entry: Sendable {
    public var path: String
    public var result: Result<CalendarItem, CalendarReadError>
    public var warnings: [String]
  }

  /// Most files read from one directory.
  public static let fileLimit = 100_000

  /// The files of `path` (its `.ics` files in name order, or the file itself), each read on
  /// its own: one unreadable or malformed file is an error entry, never an end to the others.
  ///
  /// - Throws: `CalendarReadError` when `path` is neither a directory nor a regular file.
  public static func read(_ path: String) throws(CalendarReadError) -> [Entry] {
    guard let status = FileSystem.status(path) else { throw CalendarReadError("\(path) does not exist") }
    var files: [String]
    if status.kind == .directory {
      do {
        files = try FileSystem.directoryEntries(path).filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted()
      } catch {
        throw CalendarReadError("\(path) cannot be listed (\(error))")
      }
      if files.count > fileLimit { files = Array(files.prefix(fileLimit)) }
      files = files.map { path + (path.hasSuffix("/") ? "" : "/") + $0 }
    } else if status.isRegular {
      files = [path]
    } else {
      throw CalendarReadError("\(path) is neither a directory nor a regular file")
    }
    return files.map { file in
      do throws(CalendarReadError) {
        let bytes = try contents(file)
        let (item, warnings) = try CalendarItemReader.read(bytes)
        return Entry(path: file, result: .success(item), warnings: warnings)
      } catch {
        return Entry(path: file, result: .failure(error), warnings: [])
      }
    }
  }

  /// A file's bytes, refused past the item limit before they are read.
  static func contents(_ path: String) throws(CalendarReadError) -> [UInt8] {
    let file: RegularFile
    do { file = try RegularFile.open(path) } catch { throw CalendarReadError(error.message) }
    defer { file.close() }
    guard file.size <= CalendarItem.Limits.itemBytes else {
      throw CalendarReadError("larger than \(CalendarItem.Limits.itemBytes) bytes (\(file.size))")
    }
    do { return try file.descriptor.readToEnd() } catch { throw CalendarReadError("cannot be read (\(error))") }
  }

  /// How items are read in `userZone` here: CLDR's Windows names, and tzdata's zones to match
  /// VTIMEZONE definitions against (every reader of a calendar uses this one, so a scan and a
  /// write-back find the same occurrences).
  public static func zones(userZone: Zone) -> CalendarZones {
    CalendarZones(userZone: userZone, windowsZones: windowsZones(), ruleCandidates: zoneCandidates())
  }

  /// tzdata's `zone1970.tab`: the zones a VTIMEZONE's rules are matched against.
  public static let zoneTabPath = "/usr/share/zoneinfo/zone1970.tab"

  public static func zoneCandidates(at path: String = zoneTabPath) -> [String] {
    guard let bytes = try? FileSystem.contents(path), bytes.count < 1 << 20 else { return [] }
    return CalendarZones.parseZoneTab(String(decoding: bytes, as: UTF8.self))
  }

  /// CLDR's Windows → IANA zone names from `windowsZones.xml` (Debian's unicode-cldr-core), or
  /// an empty table when the file is not there (Windows names are then unknown TZIDs).
  public static let windowsZonesPath = "/usr/share/unicode/cldr/common/supplemental/windowsZones.xml"

  public static func windowsZones(at path: String = windowsZonesPath) -> [String: String] {
    guard let bytes = try? FileSystem.contents(path), bytes.count < 1 << 20 else { return [:] }
    return CalendarZones.parseWindowsZones(String(decoding: bytes, as: UTF8.self))
  }
}
