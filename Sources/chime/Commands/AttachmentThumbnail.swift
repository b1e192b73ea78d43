import ArgumentParser
import ChimeCore
import ChimeSystem

extension AttachmentCommand {
  /// `chime attachment thumbnail`: the thumbnail chimed renders for a file, without a daemon.
  struct Thumbnail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "thumbnail",
      abstract: "Render the thumbnail chimed shows for an attachment, as PNG (no daemon needed).",
      discussion: """
        Runs the attachment inspector and option rules as `chime attachment check` does, then \
        renders what a notification shows: the frame at the thumbnail time (a frame index of an \
        animated GIF or PNG, seconds into a movie), the clipping rectangle cropped out (x,y,w,h \
        in the unit square, origin at the top left), scaled to fit the box keeping the aspect \
        ratio (default 300x169, the size Apple's thumbnail Q&A gives). Exits non-zero with the \
        status and reason when the file or an option is refused or the file does not render.

        Examples:
          chime attachment thumbnail photo.jpg -o thumb.png
          chime attachment thumbnail clip.mp4 --thumbnail-time 2.5 \\
            --clip 0,0,0.5,0.5 -o thumb.png
          chime attachment thumbnail wave.gif --thumbnail-time 3 --box 600x338 \\
            -o thumb.png
        """
    )

    @Argument(help: "The image or movie (a relative path is taken from the current directory).")
    var file: String

    @Option(name: .customLong("type-hint"), help: "A UTI such as public.mpeg-4; must agree with the bytes.")
    var typeHint = ""

    @Option(help: "Thumbnail clipping rectangle x,y,w,h in the unit square, e.g. 0,0,0.5,0.5.", transform: ClipText.parse)
    var clip: ClipRect?

    @Option(name: .customLong("thumbnail-time"), help: "Seconds into a movie, or a frame index of an animated GIF or PNG.")
    var thumbnailTime: Double?

    @Option(help: "The box the thumbnail is scaled to fit, WxH in pixels.")
    var box = ThumbnailBox.default.description

    @Option(name: [.short, .customLong("output")], help: "The PNG file to write (replaced if it exists).")
    var output: String

    @Flag(help: "Print JSON: {output, width, height, type}.")
    var json = false

    func run() async throws {
      try await reporting(json: json) {
        var options = AttachmentOptions()
        options.typeHint = typeHint
        options.thumbnailClippingRect = clip
        options.thumbnailTime = thumbnailTime
        let box = try ThumbnailBox(parsing: self.box, field: "box")
        let path = LocalFile.absolute(file)
        let verdict = AttachmentVerdict.check(path: path, options: options)
        if let error = verdict.error { throw error }
        guard let facts = verdict.facts else { throw ChimeError(.attachmentCorrupt, "\(path) was not inspected") }
        let destination = LocalFile.absolute(output)
        // Rendered by the chime-thumbnail helper (as chimed does): the decoders are not linked
        // into chime, so every other command starts without them.
        guard let helperPath = ThumbnailHelper.locate() else {
          throw ChimeError(.thumbnailRenderFailed,
                           "no \(ThumbnailHelper.name) found (looked in \(ThumbnailHelper.candidates().joined(separator: ", ")))")
        }
        var helper = ThumbnailHelper(path: helperPath)
        helper.timeoutMillis = 60_000
        let size: ThumbnailHelper.Rendered
        do throws(ThumbnailHelper.Failure) {
          size = try helper.render(ThumbnailJob(file: path, facts: facts, options: options, box: box, output: destination))
        } catch {
          guard case .refused(var refusal) = error else { throw error.error }
          if refusal.message.hasPrefix("cannot write ") { refusal.field = "output" }
          throw refusal
        }
        if json {
          JSONOutput.print(["output": destination, "width": size.width, "height": size.height, "type": facts.type.uti])
        } else {
          print("wrote \(output): \(size.width)x\(size.height) from \(facts.type.uti) \(facts.width)x\(facts.height)")
        }
      }
    }
  }
}
