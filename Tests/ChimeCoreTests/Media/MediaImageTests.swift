import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Media inspector: images")
struct MediaImageTests {
  private typealias B = MediaBytes

  struct Expected: Sendable, CustomTestStringConvertible {
    var name: String, type: MediaType, width: UInt32, height: UInt32, frames: UInt32
    var testDescription: String { name }
  }

  static let valid: [Expected] = [
    Expected(name: "images/png-rgb.png", type: .png, width: 32, height: 24, frames: 1),
    Expected(name: "images/png-interlaced.png", type: .png, width: 32, height: 24, frames: 1),
    Expected(name: "images/png-palette.png", type: .png, width: 32, height: 24, frames: 1),
    Expected(name: "images/png-gray16.png", type: .png, width: 16, height: 16, frames: 1),
    Expected(name: "images/jpeg-baseline.jpg", type: .jpeg, width: 64, height: 48, frames: 1),
    Expected(name: "images/jpeg-progressive.jpg", type: .jpeg, width: 64, height: 48, frames: 1),
    Expected(name: "images/jpeg-444.jpg", type: .jpeg, width: 40, height: 30, frames: 1),
    Expected(name: "images/gif-static.gif", type: .gif, width: 20, height: 10, frames: 1),
    Expected(name: "images/gif-animated.gif", type: .gif, width: 20, height: 10, frames: 3),
  ]

  @Test(arguments: valid)
  func validImages(_ e: Expected) throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes(e.name)).get()
    #expect(facts.type == e.type)
    #expect(facts.mediaClass == .image)
    #expect(facts.width == e.width && facts.height == e.height)
    #expect(facts.frameCount == e.frames)
    #expect(facts.bytes == UInt64(MediaFixtures.bytes(e.name).count))
  }

  @Test func fixtureFlavoursAreWhatTheirNamesSay() {
    let interlaced = MediaFixtures.bytes("images/png-interlaced.png")
    #expect(interlaced[16 + 12] == 1, "IHDR interlace method should be Adam7")
    let progressive = MediaFixtures.bytes("images/jpeg-progressive.jpg")
    #expect(zip(progressive, progressive.dropFirst()).contains { $0 == 0xFF && $1 == 0xC2 }, "expected an SOF2 marker")
    let animated = MediaFixtures.bytes("images/gif-animated.gif")
    #expect(B.find("NETSCAPE2.0", in: animated) != nil)
  }

  @Test func animatedGIFDurationIsTheSumOfDelays() throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes("images/gif-animated.gif")).get()
    #expect(facts.isAnimated)
    #expect(facts.durationSeconds == 0.6)  // three frames of 20/100 s
  }

  // MARK: PNG

  static func png(width: UInt32 = 4, height: UInt32 = 4, colorType: UInt8 = 2, depth: UInt8 = 8,
                  chunks: [[UInt8]]? = nil) -> [UInt8] {
    let ihdr = B.pngChunk("IHDR", B.be32(width) + B.be32(height) + [depth, colorType, 0, 0, 0])
    let body = chunks ?? [B.pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]), B.pngChunk("IEND", [])]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + ihdr + body.flatMap { $0 }
  }

  static func pngRaw(_ chunks: [[UInt8]]) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunks.flatMap { $0 }
  }

  @Test func pngBadCRCNamesChunkAndOffset() throws {
    let good = MediaFixtures.bytes("images/png-rgb.png")
    let idat = try #require(B.find("IDAT", in: good)) - 4
    var bad = good
    bad[idat + 8] ^= 0x01
    let error = try #require(MediaFixtures.inspectionError(bad))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.code == .invalidArgument)
    #expect(error.message == "PNG chunk IDAT CRC mismatch at offset \(idat)")
  }

  @Test func pngWrongMagicIsUnrecognized() {
    var bad = MediaFixtures.bytes("images/png-rgb.png")
    bad[1] = 0x51
    #expect(MediaFixtures.inspectionError(bad)?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  @Test func pngSynthesizedIsAccepted() throws {
    let facts = try MediaFixtures.inspect(Self.png(width: 7, height: 3)).get()
    #expect(facts.width == 7 && facts.height == 3)
  }

  static let pngBrokenCases: [(String, [UInt8])] = [
    ("IHDR not first", pngRaw([B.pngChunk("tEXt", B.ascii("a\0b"))]) + Array(png().dropFirst(8))),
    ("second IHDR", png(chunks: [B.pngChunk("IHDR", B.be32(1) + B.be32(1) + [8, 2, 0, 0, 0]), B.pngChunk("IDAT", [0]), B.pngChunk("IEND", [])])),
    ("no IEND", png(chunks: [B.pngChunk("IDAT", [0, 0])])),
    ("no IDAT", png(chunks: [B.pngChunk("IEND", [])])),
    ("IEND with data", png(chunks: [B.pngChunk("IDAT", [0]), B.pngChunk("IEND", [1])])),
    ("unknown critical chunk", png(chunks: [B.pngChunk("QxAT", [0]), B.pngChunk("IDAT", [0]), B.pngChunk("IEND", [])])),
    ("split IDAT run", png(chunks: [B.pngChunk("IDAT", [0]), B.pngChunk("tEXt", [0]), B.pngChunk("IDAT", [0]), B.pngChunk("IEND", [])])),
    ("bad colour type", png(colorType: 5)),
    ("bad depth", png(colorType: 2, depth: 4)),
    ("zero width", png(width: 0)),
    ("palette without PLTE", png(colorType: 3)),
    ("length past end", png(chunks: [B.be32(1000) + B.ascii("IDAT") + [0, 0, 0, 0]])),
    ("bad chunk type", png(chunks: [B.pngChunk("ID4T", [0]), B.pngChunk("IEND", [])])),
  ]

  @Test(arguments: pngBrokenCases)
  func pngStructuralErrors(_ name: String, _ bytes: [UInt8]) throws {
    let error = try #require(MediaFixtures.inspectionError(bytes), "\(name) should be refused")
    #expect(error.reason == "ATTACHMENT_CORRUPT", "\(name): \(error)")
  }

  @Test func pngDeclaredLengthPastEndSaysSo() throws {
    let bytes = Self.png(chunks: [B.be32(1000) + B.ascii("IDAT") + [0, 0, 0, 0]])
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message.contains("IDAT at offset 33 declares 1000 bytes, past the end of the file"))
  }

  @Test func pngTrailingBytesAfterIENDAreTolerated() throws {
    let bytes = MediaFixtures.bytes("images/png-rgb.png") + [1, 2, 3]
    #expect(try MediaFixtures.inspect(bytes).get().type == .png)
  }

  // MARK: JPEG

  @Test func jpegWithoutEOIIsCorrupt() throws {
    let good = MediaFixtures.bytes("images/jpeg-baseline.jpg")
    for cut in [2, 1] {
      let error = try #require(MediaFixtures.inspectionError(Array(good.dropLast(cut))))
      #expect(error.reason == "ATTACHMENT_CORRUPT")
    }
  }

  @Test func jpegProgressiveTruncatedBetweenScansIsCorrupt() throws {
    let good = MediaFixtures.bytes("images/jpeg-progressive.jpg")
    // Cut just before the second SOS marker: the file stops at a marker boundary.
    var sos: [Int] = []
    for i in 0..<(good.count - 1) where good[i] == 0xFF && good[i + 1] == 0xDA { sos.append(i) }
    #expect(sos.count > 1)
    let error = try #require(MediaFixtures.inspectionError(Array(good[0..<sos[1]])))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
  }

  @Test func jpegSegmentLengthPastEnd() throws {
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x40, 0x00, 0x4A, 0x46]
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("past the end of the file"))
  }

  @Test func jpegScanBeforeFrameHeader() throws {
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0xFF, 0xD9]
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message.contains("before the frame header"))
  }

  @Test func jpegZeroWidthIsCorrupt() throws {
    let good = MediaFixtures.bytes("images/jpeg-baseline.jpg")
    var sof = 0
    for i in 0..<(good.count - 1) where good[i] == 0xFF && good[i + 1] == 0xC0 { sof = i; break }
    let bad = B.patch(good, at: sof + 7, [0, 0])
    #expect(MediaFixtures.inspectionError(bad)?.reason == "ATTACHMENT_CORRUPT")
  }

  @Test func jpegTrailerAfterEOIIsTolerated() throws {
    let bytes = MediaFixtures.bytes("images/jpeg-baseline.jpg") + B.ascii("motion-photo-trailer")
    #expect(try MediaFixtures.inspect(bytes).get().type == .jpeg)
  }

  // MARK: GIF

  @Test func gifWithoutTrailerIsCorrupt() throws {
    let good = MediaFixtures.bytes("images/gif-animated.gif")
    let error = try #require(MediaFixtures.inspectionError(Array(good.dropLast())))
    #expect(error.reason == "ATTACHMENT_CORRUPT")
    #expect(error.message.contains("without a trailer"))
  }

  @Test func gif87aIsAccepted() throws {
    let bytes = B.patch(MediaFixtures.bytes("images/gif-static.gif"), at: 0, B.ascii("GIF87a"))
    #expect(try MediaFixtures.inspect(bytes).get().type == .gif)
  }

  @Test func gifWithNoImageIsCorrupt() throws {
    let bytes = B.ascii("GIF89a") + B.le16(1) + B.le16(1) + [0, 0, 0] + [0x3B]
    #expect(MediaFixtures.inspectionError(bytes)?.message == "GIF has no image")
  }

  @Test func gifUnexpectedBlockIsCorrupt() throws {
    let bytes = B.ascii("GIF89a") + B.le16(1) + B.le16(1) + [0, 0, 0] + [0x99, 0x3B]
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.message.contains("unexpected byte 0x99 at offset 13"))
  }

  @Test func gifImageDataPastEndIsCorrupt() throws {
    let image: [UInt8] = [0x2C] + B.le16(0) + B.le16(0) + B.le16(1) + B.le16(1) + [0, 2, 200, 1, 2]
    let bytes = B.ascii("GIF89a") + B.le16(1) + B.le16(1) + [0, 0, 0] + image
    #expect(MediaFixtures.inspectionError(bytes)?.reason == "ATTACHMENT_CORRUPT")
  }
}
