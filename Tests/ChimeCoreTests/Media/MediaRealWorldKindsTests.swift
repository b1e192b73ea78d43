import ChimeCore
import ChimeTestSupport
import Testing

/// Files of the kinds real users have (Tests/Fixtures/media/realworld, made by
/// `make-realworld-fixtures.sh` from Debian packages and with ffmpeg and sox): bare MPEG video
/// streams, a Video CD padded between packs, non-square pixels, fragmented MP4, WAVs written to
/// a pipe, transport streams.
@Suite("Media inspector: real-world kinds")
struct MediaRealWorldKindsTests {
  private typealias B = MediaBytes

  struct Expected: Sendable, CustomTestStringConvertible {
    var name: String, type: MediaType, width: UInt32, height: UInt32, pixelWidth: UInt32, pixelHeight: UInt32
    var seconds: Double, frames: UInt32
    var testDescription: String { name }
  }

  /// Sizes and frame counts as ffprobe reports them (display width = pixels × sample aspect).
  static let movies: [Expected] = [
    // Bare video elementary streams (sequence header 00 00 01 B3 first).
    Expected(name: "realworld/wx-press.mpg", type: .mpeg, width: 80, height: 60, pixelWidth: 80, pixelHeight: 60, seconds: 20, frames: 500),
    Expected(name: "realworld/ffmpeg-mpeg1.m1v", type: .mpeg, width: 32, height: 32, pixelWidth: 32, pixelHeight: 32, seconds: 1, frames: 25),
    Expected(name: "realworld/ffmpeg-mpeg2-wide.m2v", type: .mpeg2Video, width: 57, height: 32, pixelWidth: 32, pixelHeight: 32, seconds: 1, frames: 25),
    // A Video CD whose second sector ends in zero padding; its pels are 10000/9157 wide.
    Expected(name: "realworld/k3bphotovcd-16-sectors.mpg", type: .mpeg, width: 384, height: 288, pixelWidth: 352, pixelHeight: 288, seconds: 0.28, frames: 7),
    // DVD templates: 720×576 4:3 and 720×480 16:9.
    Expected(name: "realworld/devede-base_pal.mpg", type: .mpeg2Video, width: 768, height: 576, pixelWidth: 720, pixelHeight: 576, seconds: 0.96, frames: 24),
    Expected(name: "realworld/devede-base_ntsc_wide.mpg", type: .mpeg2Video, width: 853, height: 480, pixelWidth: 720, pixelHeight: 480, seconds: 29 * 1.001 / 30, frames: 29),
    // A program stream without timestamps.
    Expected(name: "realworld/pygame-blue.mpg", type: .mpeg2Video, width: 320, height: 240, pixelWidth: 320, pixelHeight: 240, seconds: 0.8, frames: 24),
    // MP4 with a pasp of 16:15, and a fragmented one (no duration in mvhd).
    Expected(name: "realworld/ffmpeg-pasp.mp4", type: .mpeg4, width: 96, height: 72, pixelWidth: 90, pixelHeight: 72, seconds: 1, frames: 10),
    Expected(name: "realworld/ffmpeg-fragmented-3s.mp4", type: .mpeg4, width: 32, height: 24, pixelWidth: 32, pixelHeight: 24, seconds: 3, frames: 30),
  ]

  @Test(arguments: movies)
  func moviesOfRealWorldKinds(_ e: Expected) throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes(e.name)).get()
    #expect(facts.type == e.type)
    #expect(facts.width == e.width && facts.height == e.height, "display size \(facts.width)×\(facts.height)")
    #expect(facts.pixelWidth == e.pixelWidth && facts.pixelHeight == e.pixelHeight, "pixels \(facts.pixelWidth)×\(facts.pixelHeight)")
    #expect(abs(facts.durationSeconds - e.seconds) < 0.001, "duration \(facts.durationSeconds)")
    #expect(facts.frameCount == e.frames)
  }

  @Test func aTypeHintOfMPEG2VideoNamesABareM2V() throws {
    let m2v = MediaFixtures.bytes("realworld/ffmpeg-mpeg2-wide.m2v")
    #expect(try MediaFixtures.inspect(m2v, typeHint: "public.mpeg-2-video").get().type == .mpeg2Video)
    let m1v = MediaFixtures.bytes("realworld/ffmpeg-mpeg1.m1v")
    #expect(MediaFixtures.inspectionError(m1v, typeHint: "public.mpeg-2-video")?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  /// An elementary stream is walked like a program stream: damage is refused, with where.
  @Test func aDamagedElementaryStreamIsCorrupt() throws {
    let good = MediaFixtures.bytes("realworld/ffmpeg-mpeg1.m1v")
    // Cut inside the last picture's header: the picture has no slice.
    let pictureCode: [UInt8] = [0, 0, 1, 0]
    let starts = (0..<(good.count - 4)).filter { (i: Int) -> Bool in Array(good[i..<(i + 4)]) == pictureCode }
    let lastPicture = try #require(starts.last)
    let cut = Array(good.prefix(lastPicture + 6))
    let cutError = try #require(MediaFixtures.inspectionError(cut))
    #expect(cutError.reason == "ATTACHMENT_CORRUPT")
    #expect(cutError.message.contains("no slice"), "\(cutError.message)")
    // A system start code (a pack header) inside a bare video stream.
    var packed = good
    packed.replaceSubrange(lastPicture..<(lastPicture + 4), with: [0, 0, 1, 0xBA])
    let packedError = try #require(MediaFixtures.inspectionError(packed))
    #expect(packedError.reason == "ATTACHMENT_CORRUPT")
    #expect(packedError.message == "MPEG video has a system start code 0x000001BA at offset \(lastPicture)")
    // A sequence header with no size.
    let sizeless = B.patch(good, at: 4, [0, 0, 0])
    #expect(MediaFixtures.inspectionError(sizeless)?.reason == "ATTACHMENT_CORRUPT")
    // Just the sequence header.
    #expect(MediaFixtures.inspectionError(Array(good.prefix(12)))?.message == "MPEG video has no picture")
  }

  /// Zero padding between packs is skipped, but only up to its bound, and other damage is not.
  @Test func zeroPaddingBetweenPacksIsSkippedWithinItsBound() throws {
    let vcd = MediaFixtures.bytes("realworld/k3bphotovcd-16-sectors.mpg")
    #expect(Array(vcd[4628..<4652]) == [UInt8](repeating: 0, count: 22) + [1, 0xBA], "the real file's padding")
    #expect(try MediaFixtures.inspect(vcd).get().frameCount == 7)
    // More padding than the bound.
    let long = Array(vcd.prefix(4628)) + [UInt8](repeating: 0, count: 5000) + Array(vcd[4628...])
    let longError = try #require(MediaFixtures.inspectionError(long))
    #expect(longError.reason == "ATTACHMENT_CORRUPT")
    #expect(longError.message == "MPEG has more than 4096 zero bytes from offset 4628 where a start code belongs")
    // Zeros followed by something that is not a start code.
    let junk = B.patch(vcd, at: 4648, [0x00, 0x00, 0x02, 0xBA])
    #expect(MediaFixtures.inspectionError(junk)?.message == "MPEG expected a start code at offset 4628, found 0x00000000")
    // Padding to the end of the file is no damage.
    #expect(try MediaFixtures.inspect(vcd + [UInt8](repeating: 0, count: 300)).get().frameCount == 7)
  }

  @Test func aFragmentedMP4sDurationBoundsTheThumbnailTime() throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes("realworld/ffmpeg-fragmented-3s.mp4")).get()
    var options = AttachmentOptions()
    options.thumbnailTime = 2.9
    try AttachmentOptionsValidator.validate(options, facts: facts, field: "options")
    options.thumbnailTime = 3.56
    #expect(throws: ChimeError.self) { try AttachmentOptionsValidator.validate(options, facts: facts, field: "options") }
  }

  @Test func aFragmentWhoseTrunListsMoreThanItHoldsIsCorrupt() throws {
    let good = MediaFixtures.bytes("realworld/ffmpeg-fragmented-3s.mp4")
    let trun = try #require(B.find("trun", in: good))
    // The sample count (after the version and flags) made huge.
    let bad = B.patch(good, at: trun + 8, B.be32(0x0001_0000))
    let error = try #require(MediaFixtures.inspectionError(bad))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("trun"), "\(error.message)")
  }

  /// WAVs written to a pipe: the writer could not go back to fill in the sizes.
  @Test(arguments: ["realworld/ffmpeg-pipe.wav", "realworld/sox-pipe.wav"])
  func aWAVWrittenToAPipeRunsToTheEndOfTheFile(_ name: String) throws {
    let bytes = MediaFixtures.bytes(name)
    let facts = try MediaFixtures.inspect(bytes).get()
    #expect(facts.type == .wav && abs(facts.durationSeconds - 0.25) < 0.001, "\(facts.durationSeconds)")
    let sound = try MediaFixtures.sound(bytes).get()
    #expect(sound.frames == 2000 && sound.codec == .lpcm)
  }

  /// Each placeholder a streaming writer leaves (0, 0xFFFFFFFF; sox's 0x7FFFF000, arecord's
  /// 0x80000000) means "to the end of the file"; any other size past the end is truncation.
  @Test(arguments: [
    (UInt32(0xFFFF_FFFF), UInt32(0xFFFF_FFFF)), (0, 0), (0xFFFF_FFFF, 0), (0, 0xFFFF_FFFF),
    (0x7FFF_F024, 0x7FFF_F000), (0x8000_0024, 0x8000_0000),
  ])
  func streamingSizesMeanToTheEndOfTheFile(_ riff: UInt32, _ data: UInt32) throws {
    let good = MediaFixtures.bytes("sounds/wav-lpcm16.wav")
    let dataAt = try #require(B.find("data", in: good))
    let frames = try MediaFixtures.sound(good).get().frames
    let streamed = B.patch(B.patch(good, at: 4, B.le32(riff)), at: dataAt + 4, B.le32(data))
    #expect(try MediaFixtures.sound(streamed).get().frames == frames)
    #expect(try MediaFixtures.inspect(streamed).get().durationSeconds == MediaFixtures.inspect(good).get().durationSeconds)
  }

  @Test func aWAVSizePastTheEndThatIsNoPlaceholderIsStillTruncation() throws {
    let good = MediaFixtures.bytes("sounds/wav-lpcm16.wav")
    let dataAt = try #require(B.find("data", in: good))
    let cut = Array(good.prefix(good.count - 100))
    #expect(MediaFixtures.inspectionError(cut)?.reason == "ATTACHMENT_CORRUPT")
    #expect(MediaFixtures.soundError(cut)?.reason == "SOUND_CORRUPT")
    // A RIFF size that fits with a data size past the end: a truncated chunk, not a stream.
    let overlong = B.patch(good, at: dataAt + 4, B.le32(0x8000_0000))
    #expect(MediaFixtures.inspectionError(overlong)?.reason == "ATTACHMENT_CORRUPT")
  }

  @Test func aTransportStreamIsNamedOnlyWhenItsPacketsRepeat() throws {
    let ts = MediaFixtures.bytes("realworld/ffmpeg.ts")
    #expect(MediaFixtures.inspectionError(ts)?.message == "the file is an MPEG transport stream (public.mpeg-2-transport-stream), not a supported attachment type")
    // A GIF whose version byte is damaged, and text that starts with G.
    var gif = MediaFixtures.bytes("images/gif-static.gif")
    gif[4] = UInt8(ascii: "8")
    for bytes in [gif, B.ascii("Good morning, this is not a movie at all, just some words. " + String(repeating: "More words. ", count: 40))] {
      let error = try #require(MediaFixtures.inspectionError(bytes))
      #expect(error.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
      #expect(!error.message.contains("transport"), "\(error.message)")
    }
    // Blu-ray's M2TS: a 4-byte timestamp before each 188-byte packet.
    var m2ts: [UInt8] = []
    for i in 0..<3 { m2ts += B.be32(UInt32(i)) + Array(ts[(i * 188)..<((i + 1) * 188)]) }
    #expect(MediaFixtures.inspectionError(m2ts)?.message.contains("BDAV MPEG-2 transport stream") == true)
  }

  /// gem-doc's `anim-1.mov` is a QuickTime movie of the kind written before `ftyp` existed: its
  /// first atom is `mdat`.
  @Test func aQuickTimeMovieWithoutFtypIsNamed() throws {
    let mov = B.be32(16) + B.ascii("mdat") + [UInt8](repeating: 7, count: 8) + B.be32(8) + B.ascii("moov")
    #expect(MediaFixtures.inspectionError(mov)?.message == "the file is a QuickTime movie (com.apple.quicktime-movie), not a supported attachment type")
  }

  /// Width and height are what the viewer sees: a phone's portrait movie (a quarter turn in its
  /// track matrix) and a JPEG whose EXIF orientation turns it report the turned size.
  @Test func aQuarterTurnSwapsTheReportedSize() throws {
    let movie = try MediaFixtures.inspect(MediaFixtures.bytes("thumbnails/rotated.mp4")).get()
    #expect(movie.width == 48 && movie.height == 64 && movie.pixelWidth == 64 && movie.pixelHeight == 48)
    // A JPEG with an EXIF block whose orientation is 6 (turn 90° clockwise to show).
    let jpeg = MediaFixtures.bytes("images/jpeg-baseline.jpg")
    let tiff: [UInt8] = B.ascii("MM") + B.be16(42) + B.be32(8) + B.be16(1) + B.be16(0x0112) + B.be16(3) + B.be32(1) + B.be16(6) + B.be16(0) + B.be32(0)
    let app1 = [0xFF, 0xE1] + B.be16(UInt16(2 + 6 + tiff.count)) + B.ascii("Exif") + [0, 0] + tiff
    let turned = Array(jpeg.prefix(2)) + app1 + Array(jpeg.dropFirst(2))
    let plain = try MediaFixtures.inspect(jpeg).get()
    let facts = try MediaFixtures.inspect(turned).get()
    #expect(facts.width == plain.height && facts.height == plain.width && facts.pixelWidth == plain.width)
  }
}
