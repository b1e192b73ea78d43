import ChimeCore

/// An attachment whose file is already in the store (linked or copied, fsynced, inspected) but
/// whose row is not committed yet. After the commit the source is unlinked (a move); when the
/// commit fails the store file is unlinked instead and the source was never touched.
struct StagedAttachment: Sendable {
  /// The request's attachment with its identifier filled in and `info` describing the stored file.
  var attachment: Attachment
  var storePath: String { attachment.info?.storePath ?? "" }
  /// The file the client named, and the identity of what was opened there.
  var source: String
  var sourceDevice: UInt64
  var sourceInode: UInt64
  /// False for a file inside the app's bundle: copied, the source stays.
  var removesSource: Bool
}
