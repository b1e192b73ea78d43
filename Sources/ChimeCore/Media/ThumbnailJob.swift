/// One thumbnail for `chime-thumbnail` to render, as the command line both sides speak: chimed
/// and `chime attachment thumbnail` build `arguments`, the helper parses them back. Pure.
///
///     chime-thumbnail --type UTI --bytes N --width W --height H [--pixels WxH] [--duration S]
///                     [--frames N] [--clip x,y,w,h] [--time T] --box WxH --output PATH [--mode OCTAL]
///                     [--max-memory-mib N] [--max-cpu-seconds N] FILE
///
/// The facts are the inspector's (the caller inspected the file, or stored them); the clip
/// rectangle and time are the attachment's options; the limits are applied by the helper to
/// itself (`setrlimit`) before it opens the file.
public struct ThumbnailJob: Hashable, Sendable {
  public var file: String
  public var facts: MediaFacts
  public var clip: ClipRect?
  public var time: Double?
  public var box: ThumbnailBox
  public var output: String
  /// The permission bits of the written PNG (before the umask).
  public var mode: UInt32 = 0o644
  /// RLIMIT_AS, RLIMIT_CPU in the helper; nil: none.
  public var memoryLimitMiB: Int?
  public var cpuLimitSeconds: Int?

  public init(file: String, facts: MediaFacts, options: AttachmentOptions, box: ThumbnailBox, output: String) {
    self.file = file
    self.facts = facts
    clip = options.thumbnailClippingRect
    time = options.thumbnailTime
    self.box = box
    self.output = output
  }

  /// The options the renderer reads (clip rectangle and time).
  public var options: AttachmentOptions {
    var options = AttachmentOptions()
    options.thumbnailClippingRect = clip
    options.thumbnailTime = time
    return options
  }

  /// The helper's arguments (without its path).
  public var arguments: [String] {
    var args = ["--type", facts.type.uti, "--bytes", "\(facts.bytes)", "--width", "\(facts.width)",
                "--height", "\(facts.height)", "--duration", "\(facts.durationSeconds)", "--frames", "\(facts.frameCount)"]
    if facts.pixelWidth != facts.width || facts.pixelHeight != facts.height {
      args += ["--pixels", "\(facts.pixelWidth)x\(facts.pixelHeight)"]
    }
    if let clip { args += ["--clip", "\(clip.x),\(clip.y),\(clip.width),\(clip.height)"] }
    if let time { args += ["--time", "\(time)"] }
    args += ["--box", box.description, "--output", output, "--mode", String(mode, radix: 8)]
    if let memoryLimitMiB { args += ["--max-memory-mib", "\(memoryLimitMiB)"] }
    if let cpuLimitSeconds { args += ["--max-cpu-seconds", "\(cpuLimitSeconds)"] }
    return args + ["--", file]
  }

  /// Parses `arguments` back.
  /// - Throws: INTERNAL `THUMBNAIL_RENDER_FAILED` naming the first argument that is missing or
  ///   not understood (the helper is chimed's and chime's own; a user does not call it).
  public init(arguments: [String]) throws(ChimeError) {
    func refuse(_ message: String) -> ChimeError { ChimeError(.thumbnailRenderFailed, "chime-thumbnail: \(message)") }
    var values: [String: String] = [:]
    var file: String?
    var i = 0
    while i < arguments.count {
      let arg = arguments[i]
      if arg == "--" {
        guard i + 2 == arguments.count else { throw refuse("one file after --") }
        file = arguments[i + 1]
        break
      }
      guard Self.names.contains(arg), i + 1 < arguments.count else { throw refuse("unknown or incomplete argument \(arg)") }
      values[arg] = arguments[i + 1]
      i += 2
    }
    func required(_ name: String) throws(ChimeError) -> String {
      guard let value = values[name] else { throw refuse("\(name) missing") }
      return value
    }
    func number<T: LosslessStringConvertible>(_ name: String, _: T.Type) throws(ChimeError) -> T? {
      guard let text = values[name] else { return nil }
      guard let value = T(text) else { throw refuse("\(name) \(text) is not a number") }
      return value
    }
    guard let file, !file.isEmpty else { throw refuse("no file") }
    let uti = try required("--type")
    guard let type = MediaType(uti: uti) else { throw refuse("unknown type \(uti)") }
    guard let bytes = try number("--bytes", UInt64.self), let width = try number("--width", UInt32.self),
          let height = try number("--height", UInt32.self) else { throw refuse("--bytes, --width and --height are required") }
    var pixels: (UInt32, UInt32)?
    if let text = values["--pixels"] {
      let parts = text.split(separator: "x").compactMap { UInt32(String($0)) }
      guard parts.count == 2 else { throw refuse("--pixels \(text) is not WxH") }
      pixels = (parts[0], parts[1])
    }
    let facts = MediaFacts(type: type, bytes: bytes, width: width, height: height,
                           pixelWidth: pixels?.0, pixelHeight: pixels?.1, durationSeconds: try number("--duration", Double.self) ?? 0,
                           frameCount: try number("--frames", UInt32.self) ?? 0)
    var options = AttachmentOptions()
    if let text = values["--clip"] {
      let parts = text.split(separator: ",").compactMap { Double(String($0)) }
      guard parts.count == 4 else { throw refuse("--clip \(text) is not x,y,w,h") }
      options.thumbnailClippingRect = ClipRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }
    options.thumbnailTime = try number("--time", Double.self)
    let box = try ThumbnailBox(parsing: try required("--box"))
    self.init(file: file, facts: facts, options: options, box: box, output: try required("--output"))
    if let text = values["--mode"] {
      guard let mode = UInt32(text, radix: 8), mode <= 0o777 else { throw refuse("--mode \(text) is not octal permission bits") }
      self.mode = mode
    }
    memoryLimitMiB = try number("--max-memory-mib", Int.self)
    cpuLimitSeconds = try number("--max-cpu-seconds", Int.self)
  }

  private static let names: Set<String> = [
    "--type", "--bytes", "--width", "--height", "--pixels", "--duration", "--frames", "--clip", "--time", "--box", "--output",
    "--mode", "--max-memory-mib", "--max-cpu-seconds",
  ]

  /// The line the helper prints on stderr before exiting 1: `REASON: message`, one line.
  public static func refusalLine(_ error: ChimeError) -> String {
    let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
    return "\(error.reason): \(message)"
  }

  /// The error a refusal line names: its reason (with the reason's code) and message; nil when
  /// the line does not start with a catalogued reason.
  public static func refusal(fromLine line: String) -> ChimeError? {
    guard let colon = line.firstIndex(of: ":") else { return nil }
    let name = String(line[..<colon])
    guard let reason = Reason.all.first(where: { $0.name == name }) else { return nil }
    return ChimeError(reason, String(line[line.index(after: colon)...].drop(while: { $0 == " " })))
  }
}
