import ChimeCore
import ChimeSystem
import Logging

/// The attachment store: `<data dir>/attachments/<app>/<uuid>.<ext>`, files private to the
/// daemon. Files enter it in a crash-safe order — link (or copy) and fsync, commit the row,
/// then unlink the source — so a crash at any point leaves the file in its source, in the
/// store, or both, never neither; the start-up sweep removes store files no row names.
///
/// Blocking (file I/O, up to 50 MB of copying): call from the work pool, never the loop.
final class AttachmentStore: Sendable {
  let root: String
  /// Files below here are the daemon's own (database, store): never attachable.
  private let privateDirectory: String
  let logger: Logger
  /// The box thumbnails are scaled to fit (`thumbnailPath(for:)`).
  let thumbnailBox: ThumbnailBox
  /// The `chime-thumbnail` program thumbnails are rendered by; nil: thumbnails are off.
  let thumbnailer: ThumbnailHelper?

  init(dataDirectory: String, logger: Logger, thumbnailBox: ThumbnailBox = .default, thumbnailer: ThumbnailHelper? = nil) {
    root = dataDirectory + "/attachments"
    privateDirectory = dataDirectory
    self.logger = logger
    self.thumbnailBox = thumbnailBox
    self.thumbnailer = thumbnailer
  }

  // MARK: staging

  /// Validates and stages every attachment of a request, in order. On the first failure the
  /// files already staged are removed and the error names the attachment (`field`).
  func stage(_ attachments: [Attachment], app: String, bundle: String, field: String) throws(ChimeError) -> [StagedAttachment] {
    var staged: [StagedAttachment] = []
    let bundleRoot = FileSystem.realPath(bundle)
    var used = Set(attachments.map(\.identifier).filter { !$0.isEmpty })
    for (i, attachment) in attachments.enumerated() {
      var attachment = attachment
      if attachment.identifier.isEmpty {
        var generated: String
        repeat { generated = RandomUUID.make() } while used.contains(generated)
        used.insert(generated)
        attachment.identifier = generated
      }
      do throws(ChimeError) {
        staged.append(try stageOne(attachment, app: app, bundleRoot: bundleRoot, field: "\(field)[\(i)]"))
      } catch {
        abandon(staged)
        throw error
      }
    }
    return staged
  }

  private func stageOne(_ attachment: Attachment, app: String, bundleRoot: String?, field: String) throws(ChimeError) -> StagedAttachment {
    let path = attachment.path
    if let problem = FileSystem.problem(withAbsolutePath: path) {
      throw invalidURL("attachment path \(problem): \(path)", field: field + ".path")
    }
    let source: RegularFile
    do throws(RegularFile.OpenFailure) {
      source = try RegularFile.open(path)
    } catch {
      throw invalidURL(error.message, field: field + ".path")
    }
    defer { source.close() }
    // Where the opened file really is, from its descriptor: a directory swapped for a symlink
    // between a check by path and the open cannot move it, so these checks see what is used.
    let opened: String
    do throws(Errno) {
      opened = try source.descriptor.openedPath()
    } catch {
      throw invalidURL("\(path) cannot be located (\(error))", field: field + ".path")
    }
    if FileSystem.isWithin(opened, root: FileSystem.realPath(privateDirectory) ?? privateDirectory) {
      throw invalidURL("\(path) is inside chimed's own data directory and cannot be attached", field: field + ".path")
    }
    let size = source.size
    guard size <= MediaClass.maxByteLimit else {
      throw ChimeError(.attachmentInvalidFileSize,
                       "the file is \(size) bytes; no attachment may exceed \(MediaClass.maxByteLimit) bytes (movie limit)", field: field)
    }
    let inBundle = bundleRoot.map { FileSystem.isWithin(opened, root: $0) } ?? false
    if !inBundle, let problem = FileSystem.whyNotRemovable(opened) {
      // Checked before anything is stored: a file that would stay where it is after a "move"
      // is refused rather than silently copied.
      throw ChimeError(.attachmentNotMovable,
                       "\(path) cannot be moved into chimed's attachment store: \(problem)", field: field + ".path")
    }

    let appDirectory = root + "/" + app
    do throws(Errno) {
      try FileSystem.makeDirectories(appDirectory)
    } catch {
      throw moveFailed("cannot create the attachment store directory", error, field: field)
    }
    let base = appDirectory + "/" + RandomUUID.make()
    let temporary = base + ".staging"
    // The stored file and the descriptor we inspect: the same inode, so what was inspected is
    // what is stored. A move links the opened inode (no copy); a bundle file, or a source on
    // another file system, is copied and the copy is inspected.
    let storedFD: FileDescriptor
    // A file with other names (hard links) is copied: the store keeps a file of its own.
    if !inBundle, source.linkCount == 1, linkOpened(source.descriptor, to: temporary) {
      do throws(Errno) {
        try source.descriptor.sync()
      } catch {
        try? FileSystem.unlink(temporary)
        throw moveFailed("cannot sync the attachment", error, field: field)
      }
      do throws(Errno) {
        storedFD = try source.descriptor.duplicate()
      } catch {
        try? FileSystem.unlink(temporary)
        throw moveFailed("cannot open the stored attachment", error, field: field)
      }
    } else {
      storedFD = try copy(source.descriptor, size: size, to: temporary, field: field)
    }
    defer { storedFD.close() }

    let facts: MediaFacts
    do throws(ChimeError) {
      facts = try MediaInspector.inspect(FileDescriptorByteSource(fileDescriptor: storedFD.rawValue, count: size),
                                         typeHint: attachment.options.typeHint, field: field)
      try AttachmentOptionsValidator.validate(attachment.options, facts: facts, field: field + ".options")
    } catch {
      try? FileSystem.unlink(temporary)
      if error.has(.mediaReadFailed) {
        throw ChimeError(.attachmentCorrupt, "\(path) could not be read to its end: \(error.message)", field: field)
      }
      throw error
    }
    let final = base + "." + Self.fileExtension(facts.type)
    do throws(Errno) {
      try FileSystem.rename(temporary, to: final)
    } catch {
      try? FileSystem.unlink(temporary)
      throw moveFailed("cannot name the stored attachment", error, field: field)
    }
    do throws(Errno) {
      try FileSystem.syncDirectory(appDirectory)
    } catch {
      try? FileSystem.unlink(final)
      throw moveFailed("cannot sync the attachment store", error, field: field)
    }
    var stored = attachment
    stored.info = AttachmentInfo(facts, storePath: final)
    return StagedAttachment(attachment: stored, source: path, sourceDevice: source.device,
                            sourceInode: source.inode, removesSource: !inBundle)
  }

  /// Hard-links the opened file into the store through /proc (no path lookup of the source
  /// again, so it cannot be swapped). False when that is not possible here (another file
  /// system, protected hard links, no /proc): the caller copies instead.
  private func linkOpened(_ fd: FileDescriptor, to path: String) -> Bool {
    do throws(Errno) {
      try fd.link(to: path)
      return true
    } catch {
      return false
    }
  }

  /// Copies `size` bytes from `fd` into a new private file, fsyncs it and returns a descriptor
  /// open on the copy.
  ///
  /// Written back as it goes, `writeBackWindow` at a time, each chunk's writeback waited for
  /// before the next is read. On this kind of disk a flush waits for every write in flight, so
  /// the store's commit fdatasync waited behind whatever the copies had in flight: with 4 MB
  /// windows other clients' adds took 50–100 ms at p99 while four clients added movies; with
  /// 256 KiB ones 3.9–4.6 ms (a movie add 345 ms), with 128 KiB ones 2.9–3.7 ms (a movie add
  /// 435–525 ms): the small adds' lane is the goal (`chime-bench --attachments-only`).
  static let writeBackWindow = 128 << 10

  private func copy(_ fd: FileDescriptor, size: Int, to path: String, field: String) throws(ChimeError) -> FileDescriptor {
    let out: FileDescriptor
    do throws(Errno) {
      out = try FileDescriptor.createNew(path, mode: 0o600)
    } catch {
      throw moveFailed("cannot create the stored copy", error, field: field)
    }
    func giveUp() {
      out.close()
      try? FileSystem.unlink(path)
    }
    var offset = 0
    let chunk = Self.writeBackWindow
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    while offset < size {
      let n: Int
      do throws(Errno) {
        n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(chunk, size - offset)]), at: offset)
      } catch {
        giveUp()
        throw moveFailed("cannot read the attachment", error, field: field)
      }
      guard n > 0 else {
        giveUp()
        throw ChimeError(.attachmentCorrupt, "the file shrank while it was being copied", field: field)
      }
      do throws(Errno) {
        try out.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
      } catch {
        giveUp()
        throw moveFailed("cannot write the stored copy", error, field: field)
      }
      out.writeBack(offset: offset, length: n, wait: true)
      offset += n
    }
    do throws(Errno) {
      try out.sync()
    } catch {
      giveUp()
      throw moveFailed("cannot sync the stored copy", error, field: field)
    }
    return out
  }

  // MARK: after the commit

  /// The rows are committed: unlink the sources of moved files, if they still name the inode
  /// that was stored (a file put there since is left alone).
  func finish(_ staged: [StagedAttachment]) {
    for item in staged where item.removesSource {
      guard let st = FileSystem.lstatus(item.source), st.device == item.sourceDevice, st.inode == item.sourceInode else {
        continue
      }
      do throws(Errno) {
        try FileSystem.unlink(item.source)
      } catch {
        logger.warning("attachment stored but its source could not be removed",
                       metadata: ["source": "\(item.source)", "error": "\(error)"])
      }
    }
  }

  /// The commit failed: the staged store files go, the sources stay.
  func abandon(_ staged: [StagedAttachment]) {
    discard(staged.map(\.storePath))
  }

  /// How much of a discarded file one journal commit frees (see `FileSystem.unlinkInSteps`);
  /// chosen with `writeBackWindow`.
  static let removalStep = 1 << 20

  /// Unlinks store files nothing holds any more, with their thumbnails; a large file is cut
  /// down in steps first, so the commits of everyone else's adds do not wait behind its
  /// discard. A path is taken by its place in the store (`<app>/<name>`, see `storeKey`) under
  /// today's root, so rows written while the data directory was spelled differently still free
  /// their files; nothing outside the store is touched.
  func discard(_ paths: [String]) {
    for path in paths {
      guard let inStore = storePath(path) else {
        logger.warning("not a store path; left alone", metadata: ["path": "\(path)"])
        continue
      }
      for file in [inStore, inStore + thumbnailSuffix] {
        do throws(Errno) {
          try FileSystem.unlinkInSteps(file, step: Self.removalStep)
        } catch where error != .noSuchFile {
          logger.warning("cannot remove a discarded attachment", metadata: ["path": "\(file)", "error": "\(error)"])
        } catch {}
      }
    }
  }

  // MARK: start-up sweep

  struct SweepReport: Sendable, Hashable {
    /// Store files no row named (a crash between staging and commit, or after a commit that
    /// discarded them): removed.
    var removed: [String] = []
    /// Rows whose file is gone from the store.
    var missing: [String] = []
  }

  /// Removes every store file that `known` does not name (a held file's thumbnail for today's
  /// box is kept with it; one made for another box goes); reports rows whose file is gone.
  /// Files are matched by their place in the store (`<app>/<name>`), not by the whole path, so
  /// a data directory spelled differently since the rows were written (a symlink, a trailing
  /// slash, a moved directory) never makes the sweep take held files for strays.
  func sweep(known: Set<String>) -> SweepReport {
    var report = SweepReport()
    let heldFiles = known.map(Self.storeKey)
    let held = Set(heldFiles + heldFiles.map { $0 + thumbnailSuffix })
    for app in (try? FileSystem.directoryEntries(root)) ?? [] {
      let directory = root + "/" + app
      guard let names = try? FileSystem.directoryEntries(directory) else { continue }
      for name in names where !held.contains(app + "/" + name) {
        let path = directory + "/" + name
        if (try? FileSystem.unlink(path)) != nil { report.removed.append(path) }
      }
    }
    for path in known.sorted() where storePath(path).flatMap(FileSystem.lstatus) == nil {
      report.missing.append(path)
    }
    return report
  }

  /// `<app>/<name>`: the last two components of a store path.
  static func storeKey(_ path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    return parts.suffix(2).joined(separator: "/")
  }

  /// Where a recorded store path's file is under today's root, or nil when the path cannot be
  /// one (fewer than two components, or `.`/`..` among the two).
  func storePath(_ recorded: String) -> String? {
    let parts = recorded.split(separator: "/", omittingEmptySubsequences: true).suffix(2)
    guard parts.count == 2, !parts.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
    return root + "/" + parts.joined(separator: "/")
  }

  // MARK: helpers

  static func fileExtension(_ type: MediaType) -> String {
    switch type {
    case .aiff: "aiff"
    case .wav: "wav"
    case .mp3: "mp3"
    case .mpeg4Audio: "m4a"
    case .jpeg: "jpg"
    case .gif: "gif"
    case .png: "png"
    case .mpeg: "mpg"
    case .mpeg2Video: "mpg"
    case .mpeg4: "mp4"
    case .avi: "avi"
    }
  }

  private func invalidURL(_ message: String, field: String) -> ChimeError {
    ChimeError(.attachmentInvalidURL, message, field: field)
  }

  private func moveFailed(_ what: String, _ failure: Errno, field: String) -> ChimeError {
    logger.error("attachment store write failed", metadata: ["what": "\(what)", "error": "\(failure)"])
    if failure == .noSpace || failure == .quotaExceeded {
      return ChimeError(.attachmentStoreFull,
                        "\(what): the disk holding chimed's attachment store is full", field: field)
    }
    return ChimeError(.attachmentMoveIntoDataStoreFailed, "\(what): \(failure)", field: field)
  }
}
