import ChimeCore
import ChimeTestSupport
import Testing

/// Animated PNG: frames counted from acTL/fcTL, a thumbnail time taken as a frame index (as for
/// GIF), and hostile chunk layouts refused with a status, never a crash.
@Suite("Media inspector: animated PNG")
struct MediaAPNGTests {
  private typealias B = MediaBytes
  static let idat = B.pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
  static let fdat = B.pngChunk("fdAT", B.be32(9) + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])

  static func acTL(_ frames: UInt32) -> [UInt8] { B.pngChunk("acTL", B.be32(frames) + B.be32(0)) }

  static func fcTL(_ sequence: UInt32, width: UInt32 = 8, height: UInt32 = 6, x: UInt32 = 0, y: UInt32 = 0,
                   delay: (UInt16, UInt16) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0) -> [UInt8] {
    B.pngChunk("fcTL", B.be32(sequence) + B.be32(width) + B.be32(height) + B.be32(x) + B.be32(y)
                 + B.be16(delay.0) + B.be16(delay.1) + [dispose, blend])
  }

  static func apng(_ chunks: [[UInt8]], width: UInt32 = 8, height: UInt32 = 6) -> [UInt8] {
    let ihdr = B.pngChunk("IHDR", B.be32(width) + B.be32(height) + [8, 6, 0, 0, 0])
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + chunks.flatMap { $0 } + B.pngChunk("IEND", [])
  }

  /// Three frames: the default image (fcTL before IDAT) and two fdAT frames.
  static let threeFrames = apng([acTL(3), fcTL(0), idat, fcTL(1, delay: (1, 4)), fdat, fcTL(3, width: 4, height: 3, x: 4, y: 3, delay: (25, 0)), fdat])

  @Test func framesAndDurationComeFromTheAnimationChunks() throws {
    let facts = try MediaFixtures.inspect(Self.threeFrames).get()
    #expect(facts.type == .png && facts.mediaClass == .image)
    #expect(facts.frameCount == 3)
    #expect(abs(facts.durationSeconds - (0.1 + 0.25 + 0.25)) < 1e-9, "a 0 denominator means hundredths")
    #expect(facts.isAnimated)
  }

  @Test func theCommittedFixtureIsAnimated() throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes("thumbnails/frames.apng.png")).get()
    #expect(facts.frameCount == 3 && facts.width == 32 && facts.height == 24)
    #expect(abs(facts.durationSeconds - 0.3) < 1e-6)
  }

  @Test func aStillPNGIsNotAnimated() throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes("images/png-rgb.png")).get()
    #expect(facts.frameCount == 1 && !facts.isAnimated)
    let one = try MediaFixtures.inspect(Self.apng([Self.acTL(1), Self.fcTL(0), Self.idat])).get()
    #expect(one.frameCount == 1 && !one.isAnimated, "a one-frame APNG is a still image")
  }

  @Test func aThumbnailTimeIsAFrameIndex() throws {
    let facts = try MediaFixtures.inspect(Self.threeFrames).get()
    func error(_ time: Double) -> ChimeError? {
      var options = AttachmentOptions()
      options.thumbnailTime = time
      do throws(ChimeError) {
        try AttachmentOptionsValidator.validate(options, facts: facts, field: "options")
        return nil
      } catch {
        return error
      }
    }
    #expect(error(0) == nil && error(2) == nil)
    for bad in [3, 1.5, -1] {
      let e = try #require(error(bad), "time \(bad)")
      #expect(e.reason == "INVALID_THUMBNAIL_TIME" && e.field == "options.thumbnail_time")
      #expect(e.message.contains("animated PNG is a frame index 0…2"), "\(e.message)")
    }
  }

  static let broken: [(String, [UInt8])] = [
    ("fewer fcTL than declared", apng([acTL(3), fcTL(0), idat, fcTL(1), fdat])),
    ("more fcTL than declared", apng([acTL(1), fcTL(0), idat, fcTL(1), fdat])),
    ("zero frames", apng([acTL(0), idat])),
    ("acTL after IDAT", apng([idat, acTL(1)])),
    ("second acTL", apng([acTL(1), acTL(1), fcTL(0), idat])),
    ("fcTL without acTL", apng([fcTL(0), idat])),
    ("frame leaves the canvas", apng([acTL(2), fcTL(0), idat, fcTL(1, width: 8, height: 6, x: 1), fdat])),
    ("frame offset overflows", apng([acTL(2), fcTL(0), idat, fcTL(1, width: 1, x: 0xFFFF_FFFF), fdat])),
    ("empty frame", apng([acTL(2), fcTL(0), idat, fcTL(1, width: 0), fdat])),
    ("unknown dispose", apng([acTL(2), fcTL(0), idat, fcTL(1, dispose: 3), fdat])),
    ("unknown blend", apng([acTL(2), fcTL(0), idat, fcTL(1, blend: 2), fdat])),
    ("short acTL", apng([B.pngChunk("acTL", B.be32(2)), idat])),
    ("short fcTL", apng([acTL(1), B.pngChunk("fcTL", B.be32(0)), idat])),
    ("absurd frame count", apng([acTL(0xFFFF_FFFF), fcTL(0), idat])),
  ]

  @Test(arguments: broken)
  func hostileAnimationChunksAreCorrupt(_ name: String, _ bytes: [UInt8]) throws {
    let error = try #require(MediaFixtures.inspectionError(bytes), "\(name) should be refused")
    #expect(error.reason == "ATTACHMENT_CORRUPT" && error.code == .invalidArgument, "\(name): \(error)")
  }

  /// Every truncation, and thousands of random byte changes that keep the CRCs right (so the
  /// animation chunks themselves are attacked, not just the checksums): a status or facts, never
  /// a crash, and never more frames than acTL could declare.
  @Test func hostileBytesGiveAStatusNeverACrash() {
    let good = Self.threeFrames
    for cut in 0..<good.count {
      let result = MediaFixtures.inspect(Array(good.prefix(cut)))
      if case .success = result { Issue.record("a cut at \(cut) was accepted") }
    }
    var random = SplitMix64(seed: 15)
    for _ in 0..<3000 {
      var chunks = Self.chunks(good)
      let which = Int(random.next() % UInt64(chunks.count))
      guard !chunks[which].data.isEmpty else { continue }
      let at = Int(random.next() % UInt64(chunks[which].data.count))
      chunks[which].data[at] = UInt8(truncatingIfNeeded: random.next())
      let bytes = [UInt8](good.prefix(8)) + chunks.flatMap { B.pngChunk($0.type, $0.data) }
      if case .success(let facts) = MediaFixtures.inspect(bytes) {
        #expect(facts.frameCount >= 1)
      }
    }
  }

  private static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
    var out: [(String, [UInt8])] = []
    var pos = 8
    while pos + 12 <= png.count {
      let length = Int(B.readBE32(png, pos))
      let type = String(decoding: png[(pos + 4)..<(pos + 8)], as: UTF8.self)
      out.append((type, Array(png[(pos + 8)..<(pos + 8 + length)])))
      pos += 12 + length
    }
    return out
  }
}
