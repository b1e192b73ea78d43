/// Decides an attachment file's type from its bytes and walks its container far enough to know
/// it is whole (UNNotificationAttachment's schedule-time check).
///
/// Pure and synchronous: it reads only through the `ByteSource` (at most a 64 KiB window at a
/// time) and may take a while on a 50 MB movie, so the daemon runs it off the loop thread.
public enum MediaInspector {
  /// Inspects one attachment file.
  ///
  /// Order of checks: empty file; larger than any class allows (50 MB); unknown type hint;
  /// type from the bytes; a hint that contradicts the bytes; the class limit; the container
  /// walk; the final type (a hint of `public.mpeg-4` makes an audio-only MPEG-4 file a movie,
  /// the one case where the bytes are ambiguous); the limit of the final class.
  ///
  /// - Parameters:
  ///   - typeHint: a UTI from the client, empty for none.
  ///   - field: the field path put on errors, e.g. `request.content.attachments[0]`.
  /// - Throws: `ChimeError` with INVALID_ARGUMENT and reason
  ///   `ATTACHMENT_INVALID_FILE_SIZE` (0 bytes or over the class limit),
  ///   `ATTACHMENT_UNRECOGNIZED_TYPE` (not a supported type, or the hint contradicts the bytes:
  ///   the message names both) or `ATTACHMENT_CORRUPT` (what is wrong, and where);
  ///   `MEDIA_READ_FAILED` (INTERNAL) when the source cannot be read.
  public static func inspect(_ source: some ByteSource, typeHint: String = "", field: String = "") throws(ChimeError) -> MediaFacts {
    let size = source.count
    guard size > 0 else {
      throw ChimeError(.attachmentInvalidFileSize, "the file is empty (0 bytes)", field: field)
    }
    guard size <= MediaClass.maxByteLimit else {
      throw ChimeError(.attachmentInvalidFileSize, "the file is \(size) bytes; no attachment may exceed \(MediaClass.maxByteLimit) bytes (movie limit)", field: field)
    }
    var hint: MediaType?
    if !typeHint.isEmpty {
      guard let named = MediaType(uti: typeHint) else {
        throw ChimeError(.attachmentUnrecognizedType, "type hint \(typeHint) is not a supported attachment type", field: field)
      }
      hint = named
    }
    let reader = ByteReader(source)
    let family: MediaFamily
    do throws(MediaParseError) {
      family = try Sniffer.family(reader)
    } catch {
      throw map(error, field, hint: typeHint)
    }
    if let hint, !family.candidates.contains(hint) {
      throw contradiction(typeHint, family.candidates[0].uti, field)
    }
    if let fixed = family.fixedClass, size > fixed.byteLimit {
      throw tooLarge(size, family.candidates[0], fixed, field)
    }
    var facts: MediaFacts
    do throws(MediaParseError) {
      facts = try family.parse(reader)
    } catch {
      throw map(error, field, hint: typeHint)
    }
    if let hint, hint != facts.type {
      if hint == .mpeg4 && facts.type == .mpeg4Audio {
        facts.type = .mpeg4
        facts.mediaClass = .movie
      } else {
        throw contradiction(typeHint, facts.type.uti, field)
      }
    }
    guard size <= facts.mediaClass.byteLimit else {
      throw tooLarge(size, facts.type, facts.mediaClass, field)
    }
    return facts
  }

  private static func contradiction(_ hint: String, _ actual: String, _ field: String) -> ChimeError {
    ChimeError(.attachmentUnrecognizedType, "type hint \(hint) contradicts the file's bytes, which are \(actual)", field: field)
  }

  private static func tooLarge(_ size: Int, _ type: MediaType, _ cls: MediaClass, _ field: String) -> ChimeError {
    ChimeError(.attachmentInvalidFileSize, "the file is \(size) bytes; the \(cls.rawValue) limit (\(type.uti)) is \(cls.byteLimit) bytes", field: field)
  }

  private static func map(_ e: MediaParseError, _ field: String, hint: String) -> ChimeError {
    switch e {
    case .corrupt(let message):
      return ChimeError(.attachmentCorrupt, message, field: field)
    case .unrecognized(let message):
      let text = hint.isEmpty ? message : "type hint \(hint) contradicts the file's bytes: \(message)"
      return ChimeError(.attachmentUnrecognizedType, text, field: field)
    case .io(var e):
      e.field = field
      return e
    }
  }
}
