import ChimeCore
import Glibc

/// Finds a custom sound by file name in an app's layout — the container's `Library/Sounds`,
/// each group container's `Library/Sounds`, then the bundle; the first existing file wins — and
/// judges it with `SoundRules`. Never leaves those directories: a symlink is followed only when
/// its target lies inside one of them. Blocking (file I/O): call from the work pool.
enum SoundResolver {
  static let criticalDowngradeNote =
    "critical alerts need the app's critical-alert authorization, which chimed does not grant yet; the sound plays as a regular one"

  /// What the request's sound will play, or nil when it has none.
  static func resolve(_ sound: Sound?, layout: AppLayout) -> SoundResolution? {
    guard let sound else { return nil }
    var resolution: SoundResolution
    switch sound.kind {
    case .none:
      return SoundResolution(plays: .none)
    case .default, .defaultCritical:
      resolution = SoundResolution(plays: .default)
    case .named, .criticalNamed:
      resolution = check(name: sound.name, layout: layout).resolution
    }
    if sound.isCritical {
      resolution.criticalDowngraded = true
      resolution.message = resolution.message.isEmpty ? criticalDowngradeNote : resolution.message + "; " + criticalDowngradeNote
    }
    return resolution
  }

  /// Looks `name` up in order and reports every place searched, up to the first match.
  static func check(name: String, layout: AppLayout) -> SoundCheck {
    let directories = layout.soundDirectories
    let roots = directories.compactMap(FileSystem.realPath)
    var steps: [SoundSearchStep] = []
    for directory in directories {
      let candidate = directory + "/" + name
      guard let st = FileSystem.lstatus(candidate) else {
        steps.append(SoundSearchStep(path: candidate, exists: false))
        continue
      }
      var target = candidate
      if FileSystem.isSymlink(st) {
        guard let resolved = FileSystem.realPath(candidate) else {
          steps.append(SoundSearchStep(path: candidate, exists: false, note: "a symbolic link to nothing"))
          continue
        }
        guard roots.contains(where: { FileSystem.isWithin(resolved, root: $0) }) else {
          steps.append(SoundSearchStep(path: candidate, exists: true,
                                       note: "a symbolic link to \(resolved), outside the app's sound directories; not followed"))
          continue
        }
        target = resolved
      }
      steps.append(SoundSearchStep(path: candidate, exists: true, note: target == candidate ? "" : "a symbolic link to \(target)"))
      return SoundCheck(searched: steps, resolution: inspect(target))
    }
    var resolution = SoundResolution(plays: .default)
    resolution.reason = "SOUND_NOT_FOUND"
    resolution.message = "no sound named \"\(name)\" in the app's container, group containers or bundle; the default sound plays"
    return SoundCheck(searched: steps, resolution: resolution)
  }

  /// Inspects the file at `path` (not following a symlink) and judges it.
  static func inspect(_ path: String) -> SoundResolution {
    do throws(RegularFile.OpenFailure) {
      return try RegularFile.withByteSource(path) { source in SoundRules.resolve(source, path: path) }
    } catch {
      var resolution = SoundResolution(plays: .default)
      resolution.path = path
      resolution.reason = error.kind == .missing || error.kind == .symlink ? "SOUND_NOT_FOUND" : "SOUND_CORRUPT"
      resolution.message = "\(error.message); the default sound plays"
      return resolution
    }
  }

  /// At delivery: the resolved file is looked at again. Unchanged when it still plays;
  /// otherwise the default sound, with the reason and a message saying it changed.
  static func recheck(_ resolution: SoundResolution) -> SoundResolution {
    guard resolution.plays == .named, !resolution.path.isEmpty else { return resolution }
    let now = inspect(resolution.path)
    guard now.plays != .named else { return resolution }
    var changed = now
    changed.criticalDowngraded = resolution.criticalDowngraded
    changed.message = now.reason == "SOUND_NOT_FOUND"
      ? "the sound file \(resolution.path) was removed after the request was added; the default sound plays"
      : "the sound file \(resolution.path) changed after the request was added: \(now.message); the default sound plays"
    return changed
  }
}
