import ChimeCore
import ChimeStore
import ChimeSystem

/// A pushed notification's content made ready to deliver: its sound resolved as at `Add`, and
/// each attachment (only a service extension adds them) validated and staged as at `Add` —
/// type from the bytes, limits, quota — but one at a time: a refused file is left out and
/// recorded, and the rest is delivered.
enum PushPreparation {
  /// Blocking (file I/O): runs on the work pool.
  ///
  /// - Throws: store read failures only; attachment refusals are returned in `refused`.
  static func prepare(_ request: NotificationRequest, app: String, database: ChimeDatabase, attachments: AttachmentStore,
                      appsDirectory: String, criticalAllowed: Bool) throws(ChimeError) -> PreparedRequest {
    var bare = request
    bare.content.attachments = []
    var prepared = try PreparedRequest.prepare(bare, app: app, database: database, attachments: attachments, appsDirectory: appsDirectory,
                                               criticalAllowed: criticalAllowed)
    let files = request.content.attachments
    guard !files.isEmpty else { return prepared }
    let layout = try database.app(app) ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory)
    let used = try database.attachmentUsage(app: app, replacing: request.identifier, deliveredAtOnce: true)
    var planned: Int64 = 0
    var staged: [StagedAttachment] = []
    var refused: [RefusedAttachment] = []
    for (i, file) in files.enumerated() {
      let field = "content.attachments[\(i)]"
      let size = FileSystem.lstatus(file.path).map(\.size) ?? 0
      if size <= Int64(MediaClass.maxByteLimit), used + planned + max(size, 0) > database.attachmentQuota {
        refused.append(RefusedAttachment(identifier: file.identifier, path: file.path, reason: Reason.attachmentQuotaExceeded.name,
                                         message: "the file takes \(size) bytes and the app already holds \(used + planned); its quota is \(database.attachmentQuota) bytes",
                                         field: field))
        continue
      }
      do throws(ChimeError) {
        // Staged alone, so its errors name `content.attachments[0]`: put its own index back.
        let one = try attachments.stage([file], app: app, bundle: layout.bundle, field: "content.attachments")
        staged += one
        planned += one.reduce(0) { $0 + Int64($1.attachment.info?.bytes ?? 0) }
      } catch {
        let prefix = "content.attachments[0]"
        let errorField = error.field.hasPrefix(prefix) ? field + error.field.dropFirst(prefix.count) : error.field
        refused.append(RefusedAttachment(identifier: file.identifier, path: file.path, reason: error.reason, message: error.message, field: errorField))
      }
    }
    prepared.staged = staged
    prepared.request.content.attachments = staged.map(\.attachment)
    prepared.refused = refused
    return prepared
  }
}
