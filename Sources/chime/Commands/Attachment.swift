import ArgumentParser
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime attachment`: local checks of attachment files. Named `AttachmentCommand` so it does
/// not shadow ChimeCore's `Attachment` model type inside this module.
struct AttachmentCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "attachment",
    abstract: "Check attachment files and render their thumbnails before scheduling them (no daemon needed).",
    subcommands: [
      Check.self,
      Thumbnail.self,
    ]
  )
}

extension AttachmentCommand {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Run the daemon's attachment inspector on a file and print its verdict.",
      discussion: """
        The type is decided by the bytes, never the file name. Prints ok, the type (UTI), class, \
        size and the facts that apply (width, height, duration, frames); on refusal the reason, \
        message and, for an option, its field. Exits 0 only when the file would be accepted.
        It runs without chimed, so it judges the bytes and options only: where the file may be \
        (the app's bundle is copied from, chimed's own store is refused) and the app's quota \
        are checked when `chime add --attach` schedules it.

        Examples:
          chime attachment check photo.png
          chime attachment check clip.mp4 --thumbnail-time 2.5 --clip 0,0,0.5,0.5
          chime attachment check voice.m4a --type-hint public.mpeg-4 --json
        """
    )

    @Argument(help: "The file (a relative path is taken from the current directory).")
    var file: String

    @Option(name: .customLong("type-hint"), help: "A UTI such as public.mpeg-4; must agree with the bytes.")
    var typeHint = ""

    @Option(help: "Thumbnail clipping rectangle x,y,w,h in the unit square, e.g. 0,0,0.5,0.5.", transform: ClipText.parse)
    var clip: ClipRect?

    @Flag(name: .customLong("thumbnail-hidden"), help: "Hide the thumbnail.")
    var thumbnailHidden = false

    @Option(name: .customLong("thumbnail-time"), help: "Thumbnail frame: seconds into a movie, or a frame index of an animated GIF.")
    var thumbnailTime: Double?

    @Flag(help: "Print JSON: {ok, type, class, bytes, width, height, duration_seconds, frame_count, reason, message, field}.")
    var json = false

    var options: AttachmentOptions {
      var options = AttachmentOptions()
      options.typeHint = typeHint
      options.thumbnailHidden = thumbnailHidden
      options.thumbnailClippingRect = clip
      options.thumbnailTime = thumbnailTime
      return options
    }

    func run() throws {
      let verdict = AttachmentVerdict.check(path: LocalFile.absolute(file), options: options)
      if json {
        JSONOutput.print(VerdictLine.object(verdict.lines))
      } else {
        print(VerdictLine.render(verdict.lines), terminator: "")
      }
      if !verdict.ok { throw ExitCode(1) }
    }
  }
}

/// What `chime attachment check` found: the facts when the inspector accepted the file, the
/// error when the file or its options were refused (both when only the options were).
struct AttachmentVerdict {
  /// The file's size, when it could be opened.
  var bytes: Int?
  var facts: MediaFacts?
  var error: ChimeError?

  var ok: Bool { error == nil && facts != nil }

  /// Opens the file as the daemon will, runs `MediaInspector` and then
  /// `AttachmentOptionsValidator` (errors name the option under `options.`).
  static func check(path: String, options: AttachmentOptions) -> AttachmentVerdict {
    do throws(RegularFile.OpenFailure) {
      return try RegularFile.withByteSource(path) { source in
        var verdict = AttachmentVerdict(bytes: source.count)
        do throws(ChimeError) {
          let facts = try MediaInspector.inspect(source, typeHint: options.typeHint)
          verdict.facts = facts
          try AttachmentOptionsValidator.validate(options, facts: facts, field: "options")
        } catch where error.has(.mediaReadFailed) {
          // As the daemon reports it: the file changed or failed under the reader.
          verdict.error = ChimeError(.attachmentCorrupt, "\(path) could not be read to its end: \(error.message)")
        } catch {
          verdict.error = error
        }
        return verdict
      }
    } catch {
      return AttachmentVerdict(error: ChimeError(.attachmentInvalidURL, error.message))
    }
  }

  /// The facts that apply to the file's class; a zero (unknown, or not applicable) is left out.
  var fileFacts: [VerdictLine] {
    guard let facts else { return bytes.map { [VerdictLine("bytes", "\($0)", $0)] } ?? [] }
    var list = [
      VerdictLine("type", facts.type.uti, facts.type.uti),
      VerdictLine("class", facts.mediaClass.rawValue, facts.mediaClass.rawValue),
      VerdictLine("bytes", "\(facts.bytes)", Int(facts.bytes)),
    ]
    if facts.width > 0 { list.append(VerdictLine("width", "\(facts.width)", Int(facts.width))) }
    if facts.height > 0 { list.append(VerdictLine("height", "\(facts.height)", Int(facts.height))) }
    if facts.durationSeconds > 0 {
      list.append(VerdictLine("duration", NumberText.seconds(facts.durationSeconds), json: "duration_seconds", facts.durationSeconds))
    }
    if facts.frameCount > 0 && facts.mediaClass != .audio {
      list.append(VerdictLine("frames", "\(facts.frameCount)", json: "frame_count", Int(facts.frameCount)))
    }
    return list
  }

  /// Why the file or its options were refused.
  var refusal: [VerdictLine] {
    guard let error else { return [] }
    var list = [VerdictLine("reason", error.reason, error.reason), VerdictLine("message", error.message, error.message)]
    if !error.field.isEmpty { list.append(VerdictLine("field", error.field, error.field)) }
    return list
  }

  /// The verdict first, then what the file is.
  var lines: [VerdictLine] {
    [VerdictLine("ok", ok ? "yes" : "no", ok)] + refusal + fileFacts
  }
}

/// Parses `--clip` text: four numbers separated by commas (or colons, as in `add --attach`).
/// Only the shape is checked here; the values are `AttachmentOptionsValidator`'s to judge.
enum ClipText {
  static func parse(_ text: String) throws -> ClipRect {
    let separator: Character = text.contains(":") ? ":" : ","
    let parts = text.split(separator: separator, omittingEmptySubsequences: false)
      .map { $0.trimmingWhitespace() }
    let numbers = parts.compactMap(Double.init)
    guard parts.count == 4, numbers.count == 4 else {
      throw ValidationError("\"\(text)\" is not x,y,w,h (four numbers, e.g. 0,0,0.5,0.5)")
    }
    return ClipRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }
}

/// Numbers for the human output: at most six decimals, no trailing zeros.
enum NumberText {
  static func plain(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    var text = PlainText.fixed(value, digits: 6)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  static func seconds(_ value: Double) -> String { plain(value) + " s" }
}

/// One line of a verdict: its human key and text, and its JSON key and value.
struct VerdictLine {
  var key: String
  var text: String
  var jsonKey: String
  var value: Any

  init(_ key: String, _ text: String, json jsonKey: String? = nil, _ value: Any) {
    self.key = key
    self.text = text
    self.jsonKey = jsonKey ?? key
    self.value = value
  }

  /// `key  value` lines, keys padded to the widest: a `Table` whose first line is its first row.
  static func render(_ lines: [VerdictLine]) -> String {
    guard let first = lines.first else { return "" }
    var table = Table(headers: [first.key, first.text])
    for line in lines.dropFirst() { table.add([line.key, line.text]) }
    return table.render()
  }

  /// One JSON object with every line's key and value.
  static func object(_ lines: [VerdictLine]) -> [String: Any] {
    var object: [String: Any] = [:]
    for line in lines { object[line.jsonKey] = line.value }
    return object
  }
}

/// A file named on the command line.
enum LocalFile {
  /// `path` made absolute against the current directory and normalized, exactly as
  /// `chime add --attach` sends it to the daemon, so the check opens the file the add would.
  static func absolute(_ path: String) -> String {
    AttachOption.absolute(path, from: FileManager.default.currentDirectoryPath)
  }
}
