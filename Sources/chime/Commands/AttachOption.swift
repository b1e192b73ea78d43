import ArgumentParser
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `--attach FILE[,id=ID][,type=UTI][,hidden][,clip=x,y,w,h][,time=T]` (clip also as x:y:w:h,
/// the same two spellings `attachment check --clip` takes).
enum AttachOption {
  static let help = "Attach a file: FILE[,id=ID][,type=UTI][,hidden][,clip=x,y,w,h][,time=T] (clip also x:y:w:h). Repeatable. The file is MOVED into chimed's store and leaves its directory (copied when it is inside the app's bundle or has other hard links); to keep the original, attach a copy."

  /// What `chime add` says of a stored attachment: whether the file was moved (it is gone from
  /// where it was) or copied, and where it is now; after a move, how to keep an original.
  static func storedText(identifier: String, info: AttachmentInfo, source: String, sourceRemains: Bool) -> String {
    let what = "attachment \(identifier): \(info.type), \(info.bytes) bytes"
    if sourceRemains {
      return "\(what), copied from \(source) to \(info.storePath) (the original stays)"
    }
    return "\(what), moved from \(source) to \(info.storePath) (it is no longer at \(source); "
      + "to keep an original, attach a copy: cp FILE COPY, then --attach COPY)"
  }

  static func parse(_ text: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> Attachment {
    // Options are taken from the end while they look like options, so a file name with a comma
    // in it ("a,b.png,hidden") still names its file.
    var parts = mergingClipNumbers(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    var options: [String] = []
    while parts.count > 1, let last = parts.last, isOption(last) {
      options.insert(parts.removeLast(), at: 0)
    }
    let file = parts.joined(separator: ",")
    guard !file.isEmpty else { throw ValidationError("--attach needs a file: \(text)") }
    try refuseMistypedOption(parts, currentDirectory: currentDirectory)
    var attachment = Attachment(path: absolute(file, from: currentDirectory))
    for part in options {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      switch (pair.first ?? "", pair.count == 2 ? pair[1] : nil) {
      case ("id", let value?): attachment.identifier = value
      case ("type", let value?): attachment.options.typeHint = value
      case ("hidden", nil): attachment.options.thumbnailHidden = true
      case ("clip", let value?):
        do {
          attachment.options.thumbnailClippingRect = try ClipText.parse(value)
        } catch {
          throw ValidationError("--attach clip= takes x,y,w,h or x:y:w:h, e.g. clip=0,0,0.5,0.5 (got \"\(value)\")")
        }
      case ("time", let value?):
        guard let seconds = Double(value) else { throw ValidationError("--attach time= takes a number (seconds, or a GIF frame index)") }
        attachment.options.thumbnailTime = seconds
      default:
        throw ValidationError("--attach: unknown option \"\(part)\"; use id=, type=, hidden, clip=x,y,w,h or time=")
      }
    }
    return attachment
  }

  /// `clip=0,0,0.5,0.5` split at its commas: the numbers after a `clip=` that holds one number
  /// are its own (the file, first, is never merged; a count other than four is refused later,
  /// as a clip).
  static func mergingClipNumbers(_ parts: [String]) -> [String] {
    func isNumber<S: StringProtocol>(_ text: S) -> Bool { Double(text.trimmingWhitespace()) != nil }
    var out = Array(parts.prefix(1)), i = 1
    while i < parts.count {
      if parts[i].hasPrefix("clip="), isNumber(parts[i].dropFirst(5)) {
        var end = i + 1
        while end < parts.count, isNumber(parts[end]) { end += 1 }
        out.append(parts[i..<end].joined(separator: ","))
        i = end
      } else {
        out.append(parts[i])
        i += 1
      }
    }
    return out
  }

  /// "photo.png,hiden": no file has that name, but "photo.png" exists, so the rest is a
  /// mistyped option, not part of the file name.
  private static func refuseMistypedOption(_ parts: [String], currentDirectory: String) throws {
    guard parts.count > 1, !exists(parts.joined(separator: ","), currentDirectory) else { return }
    for cut in (1..<parts.count).reversed() {
      let head = parts[..<cut].joined(separator: ",")
      guard !head.isEmpty, isFile(head, currentDirectory) else { continue }
      let unknown = parts[cut...].filter { !isOption($0) }.map { "\"\($0)\"" }.joined(separator: ", ")
      throw ValidationError("--attach: unknown option \(unknown) after \(head); use id=, type=, hidden, clip=x,y,w,h or time=")
    }
  }

  private static func exists(_ file: String, _ currentDirectory: String) -> Bool {
    FileSystem.lstatus(absolute(file, from: currentDirectory)) != nil
  }

  /// Something that could be the attachment: there, and not a directory ("." or "dir/,x" is
  /// not a file followed by a mistyped option).
  private static func isFile(_ file: String, _ currentDirectory: String) -> Bool {
    FileSystem.status(absolute(file, from: currentDirectory)).map { !$0.isDirectory } ?? exists(file, currentDirectory)
  }

  private static let optionKeys: Set<String> = ["id", "type", "clip", "time"]

  /// True for `hidden` and `KEY=...` with a known key.
  static func isOption(_ part: String) -> Bool {
    if part == "hidden" { return true }
    guard let equals = part.firstIndex(of: "=") else { return false }
    return optionKeys.contains(String(part[..<equals]))
  }

  /// The daemon wants absolute, normalized paths: relative ones are taken from here.
  static func absolute(_ path: String, from directory: String) -> String {
    let expanded = ProcessEnvironment.expandingTilde(path)
    let full = expanded.hasPrefix("/") ? expanded : directory + "/" + expanded
    return URL(fileURLWithPath: full).standardizedFileURL.path
  }
}
