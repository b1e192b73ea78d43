import ChimeCore
import Testing

/// `ThumbnailJob`: the command line chimed and chime give `chime-thumbnail`, and the refusal
/// line it answers with, read back to the same values.
@Suite struct ThumbnailJobTests {
  @Test func argumentsReadBackToTheSameJob() throws {
    var options = AttachmentOptions()
    options.thumbnailClippingRect = ClipRect(x: 0.1, y: 0.2, width: 0.30000000000000004, height: 0.5)
    options.thumbnailTime = 2.5
    let facts = MediaFacts(type: .mpeg4, bytes: 123_456, width: 640, height: 360, durationSeconds: 4.2, frameCount: 100)
    var job = ThumbnailJob(file: "/store/-odd name.mp4", facts: facts, options: options,
                           box: ThumbnailBox(width: 64, height: 36), output: "/store/x.thumb-64x36.png")
    job.mode = 0o600
    job.memoryLimitMiB = 1024
    job.cpuLimitSeconds = 10
    #expect(try ThumbnailJob(arguments: job.arguments) == job)
    #expect(job.arguments.suffix(2) == ["--", "/store/-odd name.mp4"], "the file after --, whatever it starts with")

    let plain = ThumbnailJob(file: "/a.png", facts: MediaFacts(type: .png, bytes: 1, width: 2, height: 3),
                             options: AttachmentOptions(), box: .default, output: "/a.out")
    let read = try ThumbnailJob(arguments: plain.arguments)
    #expect(read == plain && read.clip == nil && read.time == nil && read.memoryLimitMiB == nil && read.mode == 0o644)
    #expect(!plain.arguments.contains("--pixels"), "square pixels need no second size")
  }

  /// A DVD's facts: shown 768×576, stored 720×576; both sizes survive the command line.
  @Test func nonSquarePixelsReadBack() throws {
    let facts = MediaFacts(type: .mpeg2Video, bytes: 32768, width: 768, height: 576, pixelWidth: 720, pixelHeight: 576,
                           durationSeconds: 0.96, frameCount: 24)
    let job = ThumbnailJob(file: "/dvd.mpg", facts: facts, options: AttachmentOptions(), box: .default, output: "/o.png")
    let read = try ThumbnailJob(arguments: job.arguments)
    #expect(read == job && read.facts.pixelWidth == 720 && read.facts.width == 768)
  }

  @Test(arguments: [
    ["--type", "public.png", "--bytes", "1", "--width", "2", "--height", "3", "--box", "9x9", "--output", "/o"],
    ["--type", "public.png", "--bytes", "1", "--width", "2", "--height", "3", "--box", "9x9", "--", "/f"],
    ["--type", "x.unknown", "--bytes", "1", "--width", "2", "--height", "3", "--box", "9x9", "--output", "/o", "--", "/f"],
    ["--type", "public.png", "--bytes", "one", "--width", "2", "--height", "3", "--box", "9x9", "--output", "/o", "--", "/f"],
    ["--type", "public.png", "--bytes", "1", "--width", "2", "--height", "3", "--box", "9x9", "--output", "/o", "--clip", "1,2", "--", "/f"],
    ["--type", "public.png", "--bytes", "1", "--width", "2", "--height", "3", "--box", "9x9", "--output", "/o", "--mode", "9", "--", "/f"],
    ["--bogus", "1", "--", "/f"],
  ])
  func badArgumentsAreARenderFailureNamingThem(_ arguments: [String]) {
    #expect(throws: ChimeError.self) { try ThumbnailJob(arguments: arguments) }
    do {
      _ = try ThumbnailJob(arguments: arguments)
    } catch {
      #expect(error.has(.thumbnailRenderFailed) && error.message.hasPrefix("chime-thumbnail: "), "\(error.message)")
    }
  }

  @Test func aRefusalLineIsOneLineAndReadsBack() {
    let error = ChimeError(.thumbnailNotAvailable, "audio\nhas no picture")
    let line = ThumbnailJob.refusalLine(error)
    #expect(line == "THUMBNAIL_NOT_AVAILABLE: audio has no picture")
    #expect(ThumbnailJob.refusal(fromLine: line) == ChimeError(.thumbnailNotAvailable, "audio has no picture"))
    #expect(ThumbnailJob.refusal(fromLine: "Segmentation fault: 11") == nil, "not a catalogued reason")
    #expect(ThumbnailJob.refusal(fromLine: "no colon") == nil)
  }
}
