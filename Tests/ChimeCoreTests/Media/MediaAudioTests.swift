import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Media inspector: audio")
struct MediaAudioTests {
  private typealias B = MediaBytes

  struct Expected: Sendable, CustomTestStringConvertible {
    var name: String, type: MediaType, seconds: ClosedRange<Double>
    var testDescription: String { name }
  }

  static let valid: [Expected] = [
    Expected(name: "audio/mp3-id3.mp3", type: .mp3, seconds: 1.0...1.2),
    Expected(name: "audio/mp3-plain.mp3", type: .mp3, seconds: 1.0...1.2),
    Expected(name: "audio/mp3-mpeg1.mp3", type: .mp3, seconds: 0.5...0.6),
    Expected(name: "audio/m4a-audio.m4a", type: .mpeg4Audio, seconds: 0.99...1.01),
    Expected(name: "audio/wav-pcm16.wav", type: .wav, seconds: 1.0...1.0),
    Expected(name: "audio/aiff-pcm16.aiff", type: .aiff, seconds: 1.0...1.0),
    Expected(name: "sounds/aifc-ima4.aifc", type: .aiff, seconds: 0.504...0.504),
    Expected(name: "sounds/wav-extensible-4ch.wav", type: .wav, seconds: 0.25...0.25),
    Expected(name: "sounds/unsupported-mp3-in-wav.wav", type: .wav, seconds: 0.5...0.7),
  ]

  @Test(arguments: valid)
  func validAudio(_ e: Expected) throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes(e.name)).get()
    #expect(facts.type == e.type)
    #expect(facts.mediaClass == .audio)
    #expect(e.seconds.contains(facts.durationSeconds), "duration \(facts.durationSeconds)")
    #expect(facts.width == 0 && facts.height == 0 && facts.frameCount == 0)
  }

  @Test func mp3FixturesAreWithAndWithoutID3() {
    #expect(Array(MediaFixtures.bytes("audio/mp3-id3.mp3").prefix(3)) == B.ascii("ID3"))
    #expect(MediaFixtures.bytes("audio/mp3-plain.mp3")[0] == 0xFF)
  }

  // MARK: MP3

  /// MPEG-1 Layer III, 128 kbps, 44.1 kHz, no padding: 417-byte frames.
  static func mp3Frames(_ count: Int) -> [UInt8] {
    let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
    return (0..<count).flatMap { _ in frame }
  }

  @Test func mp3SynthesizedDurationIsExact() throws {
    let facts = try MediaFixtures.inspect(Self.mp3Frames(100)).get()
    #expect(facts.durationSeconds == 100 * 1152 / 44100.0)
  }

  @Test func mp3TruncatedMidFrameIsCorrupt() throws {
    for name in ["audio/mp3-id3.mp3", "audio/mp3-plain.mp3"] {
      let good = MediaFixtures.bytes(name)
      for cut in [1, 7] {
        let error = try #require(MediaFixtures.inspectionError(Array(good.dropLast(cut))), "\(name) cut \(cut)")
        #expect(error.reason == "ATTACHMENT_CORRUPT")
        #expect(error.message.contains("truncated"), "\(error)")
      }
    }
  }

  @Test func mp3CutInsideID3IsCorrupt() throws {
    let good = MediaFixtures.bytes("audio/mp3-id3.mp3")
    let error = try #require(MediaFixtures.inspectionError(Array(good.prefix(20))))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("ID3v2 tag at offset 0 declares"))
  }

  @Test func mp3GarbageBetweenFramesIsCorrupt() throws {
    let bytes = Self.mp3Frames(3) + [1, 2, 3, 4] + Self.mp3Frames(3)
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message == "MP3 has bytes that are not a frame header at offset 1251 (after 3 frames)")
  }

  @Test func mp3ID3v1TrailerIsTolerated() throws {
    let tag = B.ascii("TAG") + [UInt8](repeating: 0x20, count: 125)
    #expect(try MediaFixtures.inspect(Self.mp3Frames(3) + tag).get().type == .mp3)
  }

  @Test func oneLoneFrameHeaderIsNotMP3() {
    let bytes = Array(Self.mp3Frames(1)) + [UInt8](repeating: 7, count: 100)
    #expect(MediaFixtures.inspectionError(bytes)?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  @Test func id3FollowedByNonMP3IsUnrecognized() {
    let id3 = B.ascii("ID3") + [3, 0, 0, 0, 0, 0, 2] + [0, 0]
    #expect(MediaFixtures.inspectionError(id3 + B.ascii("fLaC") + [UInt8](repeating: 0, count: 40))?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  @Test func mp3WithOneFrameAfterID3IsCorrupt() throws {
    let id3 = B.ascii("ID3") + [3, 0, 0, 0, 0, 0, 0]
    let error = try #require(MediaFixtures.inspectionError(id3 + Self.mp3Frames(1)))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
  }

  // MARK: WAV / AIFF

  @Test func wavRIFFSizePastEndIsCorrupt() throws {
    let bytes = MediaSoundFileBuilder.wav(formatTag: 1, dataBytes: 100, riffSizeDelta: 10)
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("RIFF header declares"))
  }

  @Test func wavDataSizePastEndIsCorrupt() throws {
    let bytes = MediaSoundFileBuilder.wav(formatTag: 1, dataBytes: 100, riffSizeDelta: 0, dataSizeDelta: 50)
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message.contains("chunk 'data' at offset 36 declares 150 bytes, past the end"))
  }

  @Test func wavWithoutFmtIsCorrupt() throws {
    let body = B.ascii("WAVE") + B.ascii("data") + B.le32(2) + [0, 0]
    let bytes = B.ascii("RIFF") + B.le32(UInt32(body.count)) + body
    #expect(MediaFixtures.inspectionError(bytes)?.message == "WAV data chunk at offset 12 comes before the fmt chunk")
  }

  @Test func aiffFramesBeyondSoundDataAreCorrupt() throws {
    let bytes = MediaSoundFileBuilder.aiff(frames: 1000, dataBytes: 999)
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message == "AIFF COMM declares 1000 frames (1000 bytes) but SSND holds 999 bytes")
  }

  @Test func aiffWithoutCOMMIsCorrupt() throws {
    let body = B.ascii("AIFF") + B.ascii("SSND") + B.be32(8) + B.be32(0) + B.be32(0)
    let bytes = B.ascii("FORM") + B.be32(UInt32(body.count)) + body
    #expect(MediaFixtures.inspectionError(bytes)?.message == "AIFF has no COMM chunk")
  }

  // MARK: MPEG-4 audio

  @Test func audioOnlyMPEG4IsAudioUnlessHintedAsMovie() throws {
    let m4a = MediaFixtures.bytes("audio/m4a-audio.m4a")
    #expect(try MediaFixtures.inspect(m4a).get().mediaClass == .audio)
    #expect(try MediaFixtures.inspect(m4a, typeHint: "public.mpeg-4-audio").get().type == .mpeg4Audio)
    #expect(try MediaFixtures.inspect(m4a, typeHint: "com.apple.m4a-audio").get().type == .mpeg4Audio)
    let asMovie = try MediaFixtures.inspect(m4a, typeHint: "public.mpeg-4").get()
    #expect(asMovie.type == .mpeg4 && asMovie.mediaClass == .movie)
  }
}
