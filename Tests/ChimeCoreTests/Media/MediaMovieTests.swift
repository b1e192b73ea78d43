import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Media inspector: movies")
struct MediaMovieTests {
  private typealias B = MediaBytes

  struct Expected: Sendable, CustomTestStringConvertible {
    var name: String, type: MediaType, width: UInt32, height: UInt32, seconds: Double, frames: UInt32
    var testDescription: String { name }
  }

  static let valid: [Expected] = [
    Expected(name: "movies/mp4-video.mp4", type: .mpeg4, width: 32, height: 24, seconds: 1, frames: 10),
    Expected(name: "movies/mp4-video-audio.mp4", type: .mpeg4, width: 32, height: 24, seconds: 1, frames: 10),
    Expected(name: "movies/mp4-fragmented.mp4", type: .mpeg4, width: 32, height: 24, seconds: 1, frames: 10),
    Expected(name: "movies/mpeg1-system.mpg", type: .mpeg, width: 32, height: 32, seconds: 1, frames: 25),
    Expected(name: "movies/mpeg2-program.mpg", type: .mpeg2Video, width: 32, height: 32, seconds: 1, frames: 25),
    Expected(name: "movies/avi-mjpeg.avi", type: .avi, width: 32, height: 24, seconds: 1, frames: 10),
    Expected(name: "movies/avi-mpeg4-audio.avi", type: .avi, width: 32, height: 24, seconds: 1, frames: 10),
  ]

  @Test(arguments: valid)
  func validMovies(_ e: Expected) throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes(e.name)).get()
    #expect(facts.type == e.type)
    #expect(facts.mediaClass == .movie)
    #expect(facts.width == e.width && facts.height == e.height)
    #expect(abs(facts.durationSeconds - e.seconds) < 0.05, "duration \(facts.durationSeconds)")
    #expect(facts.frameCount == e.frames)
  }

  @Test func mp4FixturesHaveTheTracksTheirNamesSay() {
    let withAudio = MediaFixtures.bytes("movies/mp4-video-audio.mp4")
    #expect(B.find("soun", in: withAudio) != nil && B.find("vide", in: withAudio) != nil)
    let videoOnly = MediaFixtures.bytes("movies/mp4-video.mp4")
    #expect(B.find("soun", in: videoOnly) == nil)
  }

  // MARK: ISO-BMFF

  @Test func mp4WithoutMoovIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/mp4-video.mp4")
    let moov = try #require(B.find("moov", in: good))
    let error = try #require(MediaFixtures.inspectionError(B.patch(good, at: moov, B.ascii("free"))))
    #expect(error.message == "MPEG-4 has no moov box")
  }

  @Test func mp4BoxPastEndIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/mp4-video.mp4")
    let mdat = try #require(B.find("mdat", in: good)) - 4
    let size = B.readBE32(good, mdat)
    let bad = B.patch(good, at: mdat, B.be32(size + 1))
    let error = try #require(MediaFixtures.inspectionError(bad))
    #expect(error.message == "MPEG-4 box 'mdat' at offset \(mdat) declares \(size + 1) bytes, past the end of the file (\(size) left)")
  }

  @Test func mp4TruncatedInsideMoovIsCorrupt() throws {
    // faststart puts moov before mdat: cut inside it.
    let good = MediaFixtures.bytes("movies/mp4-video.mp4")
    let moov = try #require(B.find("moov", in: good))
    let error = try #require(MediaFixtures.inspectionError(Array(good.prefix(moov + 100))))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
  }

  @Test(arguments: ["qt  ", "heic", "mif1", "avif"])
  func foreignISOBrandsAreUnrecognized(_ brand: String) throws {
    let good = MediaFixtures.bytes("movies/mp4-video.mp4")
    let bad = B.patch(good, at: 8, B.ascii(brand))
    #expect(MediaFixtures.inspectionError(bad)?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  @Test func videoMP4HintedAsAudioIsAContradiction() throws {
    let error = try #require(MediaFixtures.inspectionError(MediaFixtures.bytes("movies/mp4-video.mp4"), typeHint: "public.mpeg-4-audio"))
    #expect(error.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
    #expect(error.message == "type hint public.mpeg-4-audio contradicts the file's bytes, which are public.mpeg-4")
  }

  @Test func mp4WithNoTracksIsCorrupt() throws {
    let mvhd = B.be32(108) + B.ascii("mvhd") + [0, 0, 0, 0] + B.be32(0) + B.be32(0) + B.be32(1000) + B.be32(1000)
      + [UInt8](repeating: 0, count: 80)
    let moov = B.be32(UInt32(8 + mvhd.count)) + B.ascii("moov") + mvhd
    let ftyp = B.be32(16) + B.ascii("ftyp") + B.ascii("isom") + B.be32(0)
    let mdat = B.be32(8) + B.ascii("mdat")
    let error = try #require(MediaFixtures.inspectionError(ftyp + moov + mdat))
    #expect(error.message == "MPEG-4 has no audio or video track")
  }

  @Test func mp4BadLargeSizeIsCorrupt() throws {
    let ftyp = B.be32(16) + B.ascii("ftyp") + B.ascii("isom") + B.be32(0)
    let huge = B.be32(1) + B.ascii("mdat") + B.be64(UInt64.max)
    #expect(MediaFixtures.inspectionError(ftyp + huge)?.reason == "ATTACHMENT_CORRUPT")
  }

  // MARK: MPEG-1/2 program streams

  @Test func mpegPackHeaderDecidesTheType() throws {
    #expect(MediaFixtures.bytes("movies/mpeg1-system.mpg")[4] >> 4 == 0b0010)
    #expect(MediaFixtures.bytes("movies/mpeg2-program.mpg")[4] >> 6 == 0b01)
    let error = try #require(MediaFixtures.inspectionError(MediaFixtures.bytes("movies/mpeg2-program.mpg"), typeHint: "public.mpeg"))
    #expect(error.message == "type hint public.mpeg contradicts the file's bytes, which are public.mpeg-2-video")
  }

  @Test func mpegCutAtAPackBoundaryIsNotDetectable() throws {
    // ffmpeg writes 2048-byte packs and no program end code (both standards ask for one, but
    // requiring it would refuse every ffmpeg file): a cut at a pack boundary leaves a valid
    // stream. Documented limitation; a cut anywhere else is caught (below).
    let good = MediaFixtures.bytes("movies/mpeg2-program.mpg")
    let facts = try MediaFixtures.inspect(Array(good.prefix(4096))).get()
    #expect(facts.type == .mpeg2Video && facts.frameCount < 25)
  }

  @Test func mpegEndCodeEndsTheWalk() throws {
    let good = MediaFixtures.bytes("movies/mpeg1-system.mpg")
    let facts = try MediaFixtures.inspect(good + [0, 0, 1, 0xB9] + B.ascii("anything after the end")).get()
    #expect(facts.type == .mpeg)
  }

  @Test func mpegBadMarkerBitsAreCorrupt() throws {
    var bad = MediaFixtures.bytes("movies/mpeg2-program.mpg")
    bad[12] &= 0xFC
    let error = try #require(MediaFixtures.inspectionError(bad))
    #expect(error.message == "MPEG-2 pack header at offset 0 has wrong marker bits")
  }

  @Test func mpegPacketPastEndIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/mpeg1-system.mpg")
    let error = try #require(MediaFixtures.inspectionError(Array(good.prefix(1000))))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("past the end of the file"))
  }

  // MARK: AVI

  @Test func aviWithoutMoviIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/avi-mjpeg.avi")
    let movi = try #require(B.find("movi", in: good))
    let error = try #require(MediaFixtures.inspectionError(B.patch(good, at: movi, B.ascii("junk"))))
    #expect(error.message == "AVI has no LIST movi chunk")
  }

  @Test func aviTruncatedIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/avi-mjpeg.avi")
    let error = try #require(MediaFixtures.inspectionError(Array(good.dropLast(100))))
    #expect(error.message.contains("RIFF header declares"))
  }

  @Test func aviWithoutAvihIsCorrupt() throws {
    let good = MediaFixtures.bytes("movies/avi-mjpeg.avi")
    let avih = try #require(B.find("avih", in: good))
    let error = try #require(MediaFixtures.inspectionError(B.patch(good, at: avih, B.ascii("xxxx"))))
    #expect(error.message == "AVI LIST hdrl does not start with avih")
  }
}
