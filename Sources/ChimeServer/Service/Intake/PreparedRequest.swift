import ChimeCore
import ChimeStore
import ChimeSystem

/// A request made ready to store: its sound resolved in the app's layout and its attachments
/// inspected and staged in the attachment store (their `info` filled in).
struct PreparedRequest: Sendable {
  var request: NotificationRequest
  var sound: SoundResolution?
  var staged: [StagedAttachment] = []
  /// Attachments left out, each with why (a push stages each file alone: `PushPreparation`).
  var refused: [RefusedAttachment] = []

  /// Blocking (file I/O): runs on the work pool. A critical sound stays critical only when
  /// `criticalAllowed` (the app's critical-alert permission when it is added).
  ///
  /// - Throws: the attachment reasons (`ATTACHMENT_INVALID_URL`, `..._UNRECOGNIZED_TYPE`,
  ///   `..._INVALID_FILE_SIZE`, `..._CORRUPT`, `..._MOVE_INTO_DATA_STORE_FAILED`), bad options,
  ///   RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED` before anything is staged when the files
  ///   clearly do not fit, and store read failures.
  static func prepare(_ request: NotificationRequest, app: String, database: ChimeDatabase,
                      attachments: AttachmentStore, appsDirectory: String, criticalAllowed: Bool) throws(ChimeError) -> PreparedRequest {
    let layout = try database.app(app) ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory)
    var prepared = PreparedRequest(request: request, sound: SoundResolver.resolve(request.content.sound, layout: layout,
                                                                                   criticalAllowed: criticalAllowed))
    let files = request.content.attachments
    guard !files.isEmpty else { return prepared }

    // A cheap look first, so a request that cannot fit copies nothing. The commit checks again.
    if let sizes = Self.plannedBytes(files.map { FileSystem.lstatus($0.path).map(\.size) ?? 0 }) {
      let used = try database.attachmentUsage(app: app, replacing: request.identifier, deliveredAtOnce: request.trigger == nil)
      if used > database.attachmentQuota - sizes {
        throw ChimeError(.attachmentQuotaExceeded,
                         "the attachments take \(sizes) bytes and the app already holds \(used); its quota is \(database.attachmentQuota) bytes. Remove pending requests or delivered notifications that hold attachments",
                         field: "request.content.attachments")
      }
    }
    let staged = try attachments.stage(files, app: app, bundle: layout.bundle, field: "request.content.attachments")
    prepared.staged = staged
    prepared.request.content.attachments = staged.map(\.attachment)
    return prepared
  }

  /// The bytes the quota look-ahead counts for files of these sizes, or nil when one of them is
  /// over every class limit: staging then refuses it with `ATTACHMENT_INVALID_FILE_SIZE`, the
  /// more useful reason. Sizes come from the client's files (a sparse file can claim 2^62
  /// bytes), so nothing here may overflow.
  static func plannedBytes(_ sizes: [Int64]) -> Int64? {
    var total: Int64 = 0
    for size in sizes {
      guard size <= Int64(MediaClass.maxByteLimit) else { return nil }
      total += max(size, 0)  // at most Limits.attachmentsMax x 50 MB
    }
    return total
  }
}
