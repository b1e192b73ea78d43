import ChimeCore
import ChimeStore
import Glibc

/// A request made ready to store: its sound resolved in the app's layout and its attachments
/// inspected and staged in the attachment store (their `info` filled in).
struct PreparedRequest: Sendable {
  var request: NotificationRequest
  var sound: SoundResolution?
  var staged: [StagedAttachment] = []

  /// Blocking (file I/O): runs on the work pool.
  ///
  /// - Throws: the attachment reasons (`ATTACHMENT_INVALID_URL`, `..._UNRECOGNIZED_TYPE`,
  ///   `..._INVALID_FILE_SIZE`, `..._CORRUPT`, `..._MOVE_INTO_DATA_STORE_FAILED`), bad options,
  ///   RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED` before anything is staged when the files
  ///   clearly do not fit, and store read failures.
  static func prepare(_ request: NotificationRequest, app: String, database: ChimeDatabase,
                      attachments: AttachmentStore, appsDirectory: String) throws(ChimeError) -> PreparedRequest {
    let layout = try database.app(app) ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory)
    var prepared = PreparedRequest(request: request, sound: SoundResolver.resolve(request.content.sound, layout: layout))
    let files = request.content.attachments
    guard !files.isEmpty else { return prepared }

    // A cheap look first, so a request that cannot fit copies nothing. The commit checks again.
    let sizes = files.reduce(Int64(0)) { sum, file in sum + Int64(FileSystem.lstatus(file.path)?.st_size ?? 0) }
    let used = try database.attachmentUsage(app: app, replacing: request.identifier)
    if used + sizes > database.attachmentQuota {
      throw ChimeError(.resourceExhausted, reason: "ATTACHMENT_QUOTA_EXCEEDED",
                       "the attachments take \(sizes) bytes and the app already holds \(used); its quota is \(database.attachmentQuota) bytes. Remove pending requests or delivered notifications that hold attachments",
                       field: "request.content.attachments")
    }
    let staged = try attachments.stage(files, app: app, bundle: layout.bundle, field: "request.content.attachments")
    prepared.staged = staged
    prepared.request.content.attachments = staged.map(\.attachment)
    return prepared
  }
}
