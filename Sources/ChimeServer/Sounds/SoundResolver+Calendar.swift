import ChimeCore
import ChimeSystem

/// A calendar AUDIO alarm's sound: the local file its ATTACH names (issue 41), wherever it is,
/// judged by the same `SoundRules` as an app's sounds. A calendar has no app layout to confine
/// the lookup to (`/usr/share/sounds/…` and the user's own files are what calendar apps name);
/// only a regular file the user can read is opened, and only its header is read. Blocking
/// (file I/O): the work pool.
extension SoundResolver {
  /// What `path` plays: the file itself when it is a sound Chime plays, else the default sound
  /// with the reason.
  static func calendarFile(_ path: String) -> SoundResolution {
    guard path.hasPrefix("/") else {
      return calendarDefault(path, reason: .soundNotFound, "the alarm's sound \(path) is not an absolute path")
    }
    // The final symlink is followed here (sound themes link their files); the file opened is
    // the one it leads to, and that is what is recorded and played.
    guard let real = FileSystem.realPath(path) else {
      return calendarDefault(path, reason: .soundNotFound, "the alarm's sound \(path) does not exist")
    }
    do throws(RegularFile.OpenFailure) {
      let file = try RegularFile.open(real)
      defer { file.close() }
      var resolution = SoundRules.resolve(file.byteSource, path: real)
      if resolution.plays != .named { resolution.message = "the alarm's sound \(path): \(resolution.message)" }
      return resolution
    } catch {
      return calendarDefault(path, reason: error.kind == .missing ? .soundNotFound : .soundCorrupt, "the alarm's sound \(path): \(error.message)")
    }
  }

  /// At delivery: the file judged again as it is now (changed, removed or replaced since the
  /// alarm was planned: the default sound, saying so).
  static func recheckCalendarFile(_ resolution: SoundResolution) -> SoundResolution {
    guard resolution.plays == .named, !resolution.path.isEmpty else { return resolution }
    var now = calendarFile(resolution.path)
    if now.plays != .named { now.message = "it changed after the alarm was planned: " + now.message }
    return now
  }

  private static func calendarDefault(_ path: String, reason: Reason, _ message: String) -> SoundResolution {
    var resolution = SoundResolution(plays: .default)
    resolution.path = path
    resolution.reason = reason.name
    resolution.message = message + "; the default sound plays"
    return resolution
  }
}
