import ChimeCore
import ChimeTestSupport
import ChimeThumbnail
import Foundation
import Testing

/// `chime attachment thumbnail`: the built `chime` binary renders the thumbnail a notification
/// shows, with no daemon, and refuses bad input with a status line and a non-zero exit.
@Suite(.testTimeLimit) struct ThumbnailCLITests {
  let dir = TemporaryDirectory()

  func chime(_ arguments: [String]) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, directory: dir.path, timeout: 60)
  }

  func pixels(_ path: String) throws -> RGBAFrame {
    try ThumbnailRenderer.decodePNG([UInt8](try #require(FileManager.default.contents(atPath: path), "no \(path)")))
  }

  @Test func aClippedStillIsWrittenAsPNG() throws {
    let run = try chime(["attachment", "thumbnail", MediaCorpus.path("thumbnails/quadrants.png"),
                         "--clip", "0.5,0,0.5,0.5", "-o", "out.png"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "wrote out.png: 225x169 from public.png 64x48\n")
    let image = try pixels(dir.file("out.png"))
    #expect(image.width == 225 && image.height == 169)
    for (x, y) in [(0, 0), (112, 84), (224, 168)] {
      #expect(image.pixel(x: x, y: y) == [0, 255, 0, 255], "the top-right quadrant is lime at \(x),\(y)")
    }
  }

  @Test func aGIFFrameAndAMovieFrameInABoxOfTheirOwn() throws {
    var run = try chime(["attachment", "thumbnail", MediaCorpus.path("thumbnails/frames.gif"), "--thumbnail-time", "2",
                         "--box", "40x40", "-o", dir.file("gif.png"), "--json"])
    #expect(run.status == 0, "\(run.stderr)")
    let object = try #require(run.object)
    #expect(object["width"] as? Int == 40 && object["height"] as? Int == 30)
    #expect(object["type"] as? String == "com.compuserve.gif" && object["output"] as? String == dir.file("gif.png"))
    let gif = try pixels(dir.file("gif.png"))
    #expect(gif.pixel(x: 20, y: 15) == [0, 0, 255, 255], "frame 2 is blue")

    run = try chime(["attachment", "thumbnail", MediaCorpus.path("thumbnails/seconds.mp4"), "--thumbnail-time", "2.5",
                     "-o", "movie.png"])
    #expect(run.status == 0, "\(run.stderr)")
    let movie = try pixels(dir.file("movie.png"))
    let centre = movie.pixel(x: movie.width / 2, y: movie.height / 2)
    #expect(centre[0] < 8 && centre[1] < 8 && centre[2] > 247, "second 2 is blue: \(centre)")
  }

  @Test(arguments: [
    (["thumbnails/quadrants.png", "--clip", "0.5,0.5,0.6,0.5"], "INVALID_ARGUMENT INVALID_THUMBNAIL_CLIPPING_RECT"),
    (["thumbnails/quadrants.png", "--thumbnail-time", "1"], "INVALID_ARGUMENT INVALID_THUMBNAIL_TIME"),
    (["thumbnails/frames.apng.png", "--thumbnail-time", "3"], "INVALID_ARGUMENT INVALID_THUMBNAIL_TIME"),
    (["thumbnails/seconds.mp4", "--thumbnail-time", "9"], "INVALID_ARGUMENT INVALID_THUMBNAIL_TIME"),
    (["thumbnails/quadrants.png", "--box", "0x10"], "INVALID_ARGUMENT INVALID_THUMBNAIL_BOX"),
    (["audio/mp3-plain.mp3"], "FAILED_PRECONDITION THUMBNAIL_NOT_AVAILABLE"),
    (["thumbnails/missing.png"], "INVALID_ARGUMENT ATTACHMENT_INVALID_URL"),
  ])
  func badInputIsRefusedWithAStatusLine(_ arguments: [String], _ status: String) throws {
    let run = try chime(["attachment", "thumbnail", MediaCorpus.path(arguments[0])] + arguments.dropFirst() + ["-o", "out.png"])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("chime: \(status): "), "\(run.stderr)")
    #expect(!MediaCorpus.exists(dir.file("out.png")), "nothing written")
  }

  @Test func anAnimatedPNGFrameThroughTheBinary() throws {
    let run = try chime(["attachment", "thumbnail", MediaCorpus.path("thumbnails/frames.apng.png"), "--thumbnail-time", "1",
                         "--clip", "0,0,0.25,0.25", "-o", "apng.png"])
    #expect(run.status == 0, "\(run.stderr)")
    let image = try pixels(dir.file("apng.png"))
    #expect(image.width == 225 && image.height == 169)
    #expect(image.pixel(x: 0, y: 0) == [0, 255, 0, 255] && image.pixel(x: 224, y: 168) == [0, 255, 0, 255], "frame 1 is lime")
  }
}
