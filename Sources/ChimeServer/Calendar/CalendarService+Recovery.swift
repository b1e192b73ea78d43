import ChimeCore
import ChimeStore
import ChimeSystem
import Logging

/// Keeping up with a calendar whose directory goes away: a whole scan that fails (the vdir
/// unmounted, deleted, not readable, the helper gone) is tried again, one second later and
/// twice as long after each further failure up to `retryMaxMillis`, and `list` shows why; the
/// pending alarms stay meanwhile. After each whole scan the watched directory is looked at
/// again: a directory recreated at the calendar's path (vdirsyncer's collection deleted and
/// synced anew, a folder restored) is watched in place of the old one, and read whole.
extension CalendarService {
  /// Which directory a watch follows: its device and inode.
  struct DirectoryIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  /// The directory watched for `source`: the vdir itself, or a one-file calendar's directory.
  static func watchedDirectory(_ source: Source) -> String {
    guard !source.isDirectory else { return source.path }
    let directory = String(source.path[..<(source.path.lastIndex(of: "/") ?? source.path.startIndex)])
    return directory.isEmpty ? "/" : directory
  }

  /// A scan failed because the calendar is gone (the helper cannot read its path): the `files`
  /// inotify reported changed in it went too (`rm -r` deletes each file first), so their
  /// alarms are withdrawn. A directory merely missing (unmounted, moved away: no file
  /// reported) keeps its alarms.
  func withdrawIfGone(_ source: Source, _ error: ChimeError, files: Set<String>) {
    guard !stopped, !source.removed, error.reason == Reason.invalidCalendarPath.name, !files.isEmpty else { return }
    let gone = files.sorted().map { ApplyCalendarScan.File(name: $0, outcome: .gone) }
    let app = CalendarSource.appID(for: source.name)
    context.writer.submit(ApplyCalendarScan(source: source.name, files: gone, whole: false, plannedUntil: nil, at: context.clock.now())) { [self] result in
      if case .success(let outcome) = result {
        context.published(outcome.events, files: outcome.discardedFiles, app: app, fromCalendar: true)
      }
    }
  }

  /// A whole scan of `source` failed: remembered for `list`, and tried again later.
  func wholeScanFailed(_ source: Source, _ error: ChimeError) {
    guard !stopped, !source.removed else { return }
    let delay = source.retryDelayMillis == 0 ? configuration.retryMinMillis : min(source.retryDelayMillis * 2, configuration.retryMaxMillis)
    source.retryDelayMillis = delay
    source.failure = "\(error.message) (tried again in \(delay >= 1000 ? "\(delay / 1000) s" : "\(delay) ms"))"
    if source.retry == nil {
      source.retry = LoopTimer(loop: context.loop) { [weak self, weak source] in
        guard let self, let source, !stopped, !source.removed else { return }
        scan(source, files: nil) { _ in }
      }
    }
    source.retry?.arm(afterMillis: delay)
  }

  /// A whole scan of `source` was recorded: no failure to show or retry, and the directory
  /// followed as it is now.
  func wholeScanSucceeded(_ source: Source) {
    source.failure = nil
    source.retryDelayMillis = 0
    source.retry?.close()
    source.retry = nil
    checkDirectory(source)
  }

  /// Looks (on the work pool) at what directory is at the watched path now. Gone: the watch is
  /// closed (the failed scan's retry watches again). Another one than the watch follows: it is
  /// watched instead and read whole, since what changed in it before the new watch was never
  /// reported. The first look after `track` only learns which directory the watch follows.
  func checkDirectory(_ source: Source) {
    let directory = Self.watchedDirectory(source)
    context.loop.runBlocking({ () -> DirectoryIdentity? in
      guard let status = FileSystem.status(directory), status.isDirectory else { return nil }
      return DirectoryIdentity(device: status.device, inode: status.inode)
    }) { [self] (identity: DirectoryIdentity?) in
      guard !stopped, !source.removed else { return }
      let known = source.directoryChecked
      source.directoryChecked = true
      guard identity != source.watchedIdentity || source.watch == nil else { return }
      source.watchedIdentity = identity
      guard identity != nil else {
        source.watch?.close()
        source.watch = nil
        return
      }
      if known || source.watch == nil {
        // The new watch first: where it follows the same directory, libuv shares one inotify
        // watch between them and nothing is missed while the old one closes.
        let old = source.watch
        source.watch = nil
        watch(source)
        old?.close()
      }
      if known {
        context.logger.notice("calendar directory replaced: watching the new one", metadata: ["calendar": "\(source.name)", "path": "\(directory)"])
        source.wholeQueued = true
        settle(source)
      }
    }
  }

  /// The listing with what chimed alone knows: a calendar whose last whole scan failed shows
  /// that failure as an error with an empty file name (the calendar as a whole).
  func withFailures(_ listed: [CalendarSource]) -> [CalendarSource] {
    listed.map { listing in
      guard let failure = sources[listing.name]?.failure else { return listing }
      var shown = listing
      shown.errors.insert(CalendarSource.FileError(file: "", message: failure), at: 0)
      return shown
    }
  }
}
