public import ChimeCore
import ChimeSystem

/// Writes what the user did with calendar alarms into their items' files (RFC 9074, through
/// `AlarmWriteBack`), so every device that syncs the calendar sees it. A file is replaced
/// atomically: its current bytes are read, edited, written to a hidden temporary in the same
/// directory (vdirsyncer and the scanner skip names starting with a dot), fsynced, and renamed
/// over the file only if the file is still the one read (same inode, size and modification
/// time); otherwise it is read again and the edit made on the new bytes (three tries). Its
/// mode is kept; nothing else in it changes. Items are never created or deleted. Blocking.
public enum CalendarWriteBack {
  /// Tries per file when another program rewrites it while it is edited.
  static let attempts = 3

  /// Carries out `requests` on the calendar at `path` (a vdir directory, whose files they name,
  /// or one `.ics` file, which they name by its path), one outcome per request in order.
  /// Requests for one file are made on one read of it and written with one rename.
  public static func run(_ requests: [AlarmWriteBack.Request], calendar path: String, zones: CalendarZones, now: Instant,
                         newUID: () -> String) -> [AlarmWriteBack.Outcome] {
    var outcomes = [AlarmWriteBack.Outcome](repeating: .failed("not tried"), count: requests.count)
    let directory = FileSystem.status(path)?.isDirectory == true
    var order: [String] = []
    var byFile: [String: [Int]] = [:]
    for (number, request) in requests.enumerated() {
      if byFile[request.file] == nil { order.append(request.file) }
      byFile[request.file, default: []].append(number)
    }
    for file in order {
      let numbers = byFile[file]!
      guard directory ? !file.isEmpty && !file.contains("/") && !file.hasPrefix(".") : file == path else {
        for number in numbers { outcomes[number] = .failed("\(file) is not an item of the calendar") }
        continue
      }
      let full = directory ? path + (path.hasSuffix("/") ? "" : "/") + file : path
      let done = edit(full, numbers.map { requests[$0] }, zones: zones, now: now, newUID: newUID)
      for (number, outcome) in zip(numbers, done) { outcomes[number] = outcome }
    }
    return outcomes
  }

  /// The requests for one file: read, edit, replace; again when the file changed meanwhile.
  static func edit(_ path: String, _ requests: [AlarmWriteBack.Request], zones: CalendarZones, now: Instant,
                   newUID: () -> String) -> [AlarmWriteBack.Outcome] {
    var lastChange = ""
    for _ in 0..<attempts {
      let read: (bytes: [UInt8], status: FileStatus)
      do {
        read = try contents(path)
      } catch {
        return requests.map { _ in .failed(error.message) }
      }
      var text = read.bytes
      var outcomes: [AlarmWriteBack.Outcome] = []
      for request in requests {
        outcomes.append(editOnce(&text, request, zones: zones, now: now, newUID: newUID))
      }
      guard outcomes.contains(.written) else { return outcomes }
      do {
        guard try replace(path, with: text, ifStill: read.status) else {
          lastChange = "\(path) kept changing while it was edited"
          continue
        }
      } catch {
        return outcomes.map { $0 == .written ? .failed("\(path) could not be written: \(error)") : $0 }
      }
      return outcomes
    }
    return requests.map { _ in .failed(lastChange) }
  }

  /// One request made on `text` (the item's current bytes, edited by the requests before it).
  private static func editOnce(_ text: inout [UInt8], _ request: AlarmWriteBack.Request, zones: CalendarZones, now: Instant,
                               newUID: () -> String) -> AlarmWriteBack.Outcome {
    let item: CalendarItem
    do {
      item = try CalendarItemReader.read(text).item
    } catch {
      return .failed("the item cannot be read: \(error.message)")
    }
    do {
      let (edited, why) = try AlarmWriteBack.apply(request, to: text, item: item, zones: zones, now: now,
                                                   snoozeUID: newUID(), alarmUID: newUID())
      guard let edited else { return .unchanged(why) }
      text = edited
      return .written
    } catch {
      return .failed("the alarm cannot be found in the text: \(error)")
    }
  }

  /// The file's bytes and what `fstat` said when it was opened.
  static func contents(_ path: String) throws(CalendarReadError) -> (bytes: [UInt8], status: FileStatus) {
    let file: RegularFile
    do { file = try RegularFile.open(path) } catch { throw CalendarReadError(error.message) }
    defer { file.close() }
    guard file.size <= CalendarItem.Limits.itemBytes else {
      throw CalendarReadError("\(path) is larger than \(CalendarItem.Limits.itemBytes) bytes (\(file.size))")
    }
    do { return (try file.descriptor.readToEnd(), file.status) } catch { throw CalendarReadError("\(path) cannot be read (\(error))") }
  }

  /// Writes `bytes` to a temporary beside `path`, fsyncs it, and renames it over `path` if the
  /// name still leads to the file `read` describes; then fsyncs the directory. False (and the
  /// temporary removed) when the file changed meanwhile.
  ///
  /// - Throws: the `Errno` of the first call that failed (the temporary is removed).
  static func replace(_ path: String, with bytes: [UInt8], ifStill read: FileStatus) throws(Errno) -> Bool {
    let directory = FileSystem.directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let temporary = directory + "/." + name + ".chime-" + RandomUUID.make() + ".tmp"
    let fd = try FileDescriptor.createNew(temporary, mode: read.permissions & 0o777)
    var renamed = false
    defer { if !renamed { try? FileSystem.unlink(temporary) } }
    do {
      defer { fd.close() }
      let failure: Errno? = bytes.withUnsafeBytes { buffer in
        do throws(Errno) {
          try fd.writeAll(buffer)
          return nil
        } catch {
          return error
        }
      }
      if let failure { throw failure }
      try fd.sync()
    }
    guard let now = FileSystem.lstatus(path), now.device == read.device, now.inode == read.inode, now.size == read.size,
          now.modifiedNanos == read.modifiedNanos
    else { return false }
    try FileSystem.rename(temporary, to: path)
    renamed = true
    try FileSystem.syncDirectory(directory)
    return true
  }
}
