import ChimeCore
import ChimeSystem

/// Reads a calendar's files through the `chime-calendar` helper: libical (with the ICU and
/// libstdc++ it loads) stays out of chimed, untrusted items are parsed in a process of their
/// own with CPU and time limits, and a crash in the parser loses a scan, not the daemon. The
/// helper prints each file's planned alarms for the window (`CalendarScanLine`). Blocking: run
/// on the work pool.
struct CalendarScanner: Sendable {
  /// The helper's file name; found as chime-thumbnail is (beside chimed, or in libexec).
  static let name = "chime-calendar"

  let path: String
  var timeoutMillis = 120_000
  /// Most output read from one scan: 20,000 files' lines with a window's alarms fit well.
  var maxOutputBytes = 64 << 20

  /// One scan's findings, by file.
  struct Result: Sendable {
    enum File: Sendable {
      /// The alarms planned, and those in the window acknowledged.
      case item([PlannedAlarm], acknowledged: [PlannedAlarm])
      case failed(String)
      case gone
    }

    var files: [(name: String, file: File)] = []
  }

  /// The helper beside this executable or in the libexec directory beside its `bin`, or nil.
  static func locate() -> CalendarScanner? {
    guard let executable = FileSystem.realPath("/proc/self/exe") else { return nil }
    let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    for candidate in [directory + "/" + name, directory + "/" + ThumbnailHelper.libexecRelative + "/" + name]
    where FileSystem.status(candidate)?.isRegular == true {
      return CalendarScanner(path: candidate)
    }
    return nil
  }

  /// The alarms in `[after, until)` of the calendar at `source` (`files`: only these names in
  /// it; nil: every item), in `zone`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_PATH` when the calendar cannot be read at
  ///   all (gone, or not listable); INTERNAL when the helper fails.
  func scan(source: String, files: [String]?, after: Instant, until: Instant, zone: Zone) throws(ChimeError) -> Result {
    let argv = [path, "scan", source, String(after.unixMillis), String(until.unixMillis), zone.identifier] + (files ?? [])
    let run = Subprocess.capture(argv, timeoutMillis: timeoutMillis, maxOutputBytes: maxOutputBytes)
    switch run.outcome {
    case .exited(0):
      guard !run.truncated else { throw ChimeError(.internal, "\(Self.name) printed more than \(maxOutputBytes) bytes") }
    case .exited(1):
      throw ChimeError(.invalidCalendarPath, "the calendar cannot be read: \(run.lastErrorLine)")
    default:
      throw ChimeError(.internal, "\(Self.name) ended: \(run.outcome) \(run.lastErrorLine)")
    }
    var result = Result()
    var alarms: [PlannedAlarm] = []
    var acknowledged: [PlannedAlarm] = []
    for line in run.stdout.split(separator: 0x0A) {
      guard let parsed = CalendarScanLine(decoding: Substring(String(decoding: line, as: UTF8.self))) else { continue }
      // A file's alarm lines come before the line that ends it.
      switch parsed {
      case .alarm(_, let alarm):
        alarms.append(alarm)
        continue
      case .acknowledged(_, let alarm):
        acknowledged.append(alarm)
        continue
      case .item(let file, _): result.files.append((file, .item(alarms, acknowledged: acknowledged)))
      case .failed(let file, let message): result.files.append((file, .failed(message)))
      case .gone(let file): result.files.append((file, .gone))
      }
      alarms = []
      acknowledged = []
    }
    return result
  }

  /// Writes `requests` into the items of the calendar at `source` (`chime-calendar
  /// write-back`), planned in `zone`, acknowledged at `now`: one outcome per request.
  ///
  /// - Throws: INTERNAL when the helper fails or does not answer every request.
  func writeBack(source: String, requests: [AlarmWriteBack.Request], zone: Zone, now: Instant) throws(ChimeError) -> [AlarmWriteBack.Outcome] {
    let argv = [path, "write-back", source, zone.identifier, String(now.unixMillis)] + requests.map(\.encoded)
    let run = Subprocess.capture(argv, timeoutMillis: timeoutMillis, maxOutputBytes: 1 << 20)
    guard case .exited(0) = run.outcome else {
      throw ChimeError(.internal, "\(Self.name) write-back ended: \(run.outcome) \(run.lastErrorLine)")
    }
    var outcomes = [AlarmWriteBack.Outcome?](repeating: nil, count: requests.count)
    for line in run.stdout.split(separator: 0x0A) {
      guard let (number, outcome) = AlarmWriteBack.Outcome.decoding(Substring(String(decoding: line, as: UTF8.self))),
            outcomes.indices.contains(number) else { continue }
      outcomes[number] = outcome
    }
    guard outcomes.allSatisfy({ $0 != nil }) else {
      throw ChimeError(.internal, "\(Self.name) write-back did not answer every request \(run.lastErrorLine)")
    }
    return outcomes.map { $0! }
  }
}
