import ChimeCore
import ChimeSystem

/// Finds a custom sound by file name in an app's layout — the container's `Library/Sounds`,
/// each group container's `Library/Sounds`, then the bundle; the first file wins — and judges
/// it with `SoundRules`. Blocking (file I/O): call from the work pool.
///
/// Resolution never leaves those directories. Each candidate is opened once (not following a
/// final symlink), and where the opened file really is comes from its descriptor: it must lie
/// inside a sound directory, and that directory inside its own root (the container, group
/// container or bundle). So a symlinked `Library` or `Sounds` directory pointing elsewhere, or a
/// directory swapped for a symlink between a check and the open, cannot take the lookup out.
enum SoundResolver {
  /// What the request's sound will play, or nil when it has none. A critical sound is
  /// downgraded unless `criticalAllowed` (the app's critical-alert permission now).
  /// `layout` is evaluated only for a named sound, the one kind looked up in files.
  static func resolve(_ sound: Sound?, layout: @autoclosure () -> AppLayout, criticalAllowed: Bool = false) -> SoundResolution? {
    guard let sound else { return nil }
    var resolution: SoundResolution
    switch sound.kind {
    case .none:
      return SoundResolution(plays: .none)
    case .default, .defaultCritical:
      resolution = SoundResolution(plays: .default)
    case .named, .criticalNamed:
      resolution = check(name: sound.name, layout: layout()).resolution
    }
    return DeliveryShape.critical(resolution, requested: sound, allowed: criticalAllowed ? .criticalAlert : [])
  }

  /// Looks `name` up in order and reports every place searched, up to the first match.
  static func check(name: String, layout: AppLayout) -> SoundCheck {
    let allowed = allowedDirectories(layout)
    var steps: [SoundSearchStep] = []
    for directory in layout.soundDirectories {
      let candidate = directory + "/" + name
      guard let st = FileSystem.lstatus(candidate) else {
        steps.append(SoundSearchStep(path: candidate, exists: false))
        continue
      }
      var target = candidate
      if st.isSymbolicLink {
        guard let resolved = FileSystem.realPath(candidate) else {
          steps.append(SoundSearchStep(path: candidate, exists: false, note: "a symbolic link to nothing"))
          continue
        }
        guard allowed.contains(where: { FileSystem.isWithin(resolved, root: $0) }) else {
          steps.append(SoundSearchStep(path: candidate, exists: true,
                                       note: "a symbolic link to \(resolved), outside the app's sound directories; not followed"))
          continue
        }
        target = resolved
        if let pointed = FileSystem.lstatus(resolved), pointed.isDirectory {
          steps.append(SoundSearchStep(path: candidate, exists: true, note: "a symbolic link to the directory \(resolved), not a sound file; passed over"))
          continue
        }
      } else if st.isDirectory {
        steps.append(SoundSearchStep(path: candidate, exists: true, note: "a directory, not a sound file; passed over"))
        continue
      }
      let file: RegularFile
      do throws(RegularFile.OpenFailure) {
        file = try RegularFile.open(target)
      } catch {
        // The first file of that name, but unusable: it decides the outcome.
        steps.append(SoundSearchStep(path: candidate, exists: true, note: target == candidate ? "" : "a symbolic link to \(target)"))
        return SoundCheck(searched: steps, resolution: unopenable(error, path: target))
      }
      defer { file.close() }
      guard let opened = try? file.descriptor.openedPath(), allowed.contains(where: { FileSystem.isWithin(opened, root: $0) })
      else {
        let place = (try? file.descriptor.openedPath()) ?? target
        steps.append(SoundSearchStep(path: candidate, exists: true,
                                     note: "resolves to \(place), outside the app's sound directories; not followed"))
        continue
      }
      steps.append(SoundSearchStep(path: candidate, exists: true, note: opened == candidate ? "" : "resolves to \(opened)"))
      return SoundCheck(searched: steps, resolution: SoundRules.resolve(file.byteSource, path: opened))
    }
    var resolution = SoundResolution(plays: .default)
    resolution.reason = Reason.soundNotFound.name
    resolution.message = "no sound named \"\(name)\" in the app's container, group containers or bundle; the default sound plays"
    return SoundCheck(searched: steps, resolution: resolution)
  }

  /// The canonical sound directories that lie inside their own root: `<container>/Library/Sounds`
  /// only when it really is inside the container, and so on. The bundle is its own directory.
  static func allowedDirectories(_ layout: AppLayout) -> [String] {
    let pairs = [(layout.container, layout.container + "/Library/Sounds")]
      + layout.groupContainers.map { ($0, $0 + "/Library/Sounds") }
      + [(layout.bundle, layout.bundle)]
    return pairs.compactMap { root, directory in
      guard let root = FileSystem.realPath(root), let directory = FileSystem.realPath(directory),
            FileSystem.isWithin(directory, root: root)
      else { return nil }
      return directory
    }
  }

  /// At delivery: the resolved file is opened again by the path resolution recorded, and where
  /// it really is must still lie in one of the app's sound directories as they are now (so a
  /// directory on the way replaced by a symlink out is caught, while a path recorded through a
  /// symlinked parent such as `/home` still plays). Still playable: its facts now. Gone, led
  /// outside or unplayable: the default sound, with the reason and a message saying what
  /// changed. The critical rule is applied afterwards by `DeliveryShape`.
  static func recheck(_ resolution: SoundResolution, layout: AppLayout) -> SoundResolution {
    guard resolution.plays == .named, !resolution.path.isEmpty else { return resolution }
    let path = resolution.path
    var now: SoundResolution
    var changed: String
    do throws(RegularFile.OpenFailure) {
      let file = try RegularFile.open(path)
      defer { file.close() }
      let allowed = allowedDirectories(layout)
      if let opened = try? file.descriptor.openedPath(), allowed.contains(where: { FileSystem.isWithin(opened, root: $0) }) {
        now = SoundRules.resolve(file.byteSource, path: path)
        changed = "the sound file \(path) changed after the request was added: \(now.message); the default sound plays"
      } else {
        now = SoundResolution(plays: .default)
        now.path = path
        now.reason = Reason.soundNotFound.name
        changed = "the sound file \(path) now leads outside the app's sound directories (a directory on the way was replaced); the default sound plays"
      }
    } catch {
      now = unopenable(error, path: path)
      changed = now.reason == Reason.soundNotFound.name
        ? "the sound file \(path) was removed after the request was added; the default sound plays"
        : "the sound file \(path) changed after the request was added: \(error.message); the default sound plays"
    }
    now.criticalDowngraded = resolution.criticalDowngraded
    if now.plays == .named {
      now.message = resolution.message  // the critical note, if any
    } else {
      now.message = resolution.criticalDowngraded ? changed + "; " + DeliveryShape.criticalDowngradeNote : changed
    }
    return now
  }

  /// A file that exists but cannot be used: gone or a symlink now is SOUND_NOT_FOUND, anything
  /// else (unreadable, not a regular file) SOUND_CORRUPT.
  private static func unopenable(_ error: RegularFile.OpenFailure, path: String) -> SoundResolution {
    var resolution = SoundResolution(plays: .default)
    resolution.path = path
    resolution.reason = error.kind == .missing || error.kind == .symlink ? Reason.soundNotFound.name : Reason.soundCorrupt.name
    resolution.message = "\(error.message); the default sound plays"
    return resolution
  }
}
