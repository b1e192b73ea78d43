import ChimeCore
import Testing

@Suite("Thumbnail geometry")
struct ThumbnailGeometryTests {
  // (clip, image width, height) → expected pixel rect
  static let crops: [(ClipRect?, Int, Int, PixelRect)] = [
    (nil, 64, 48, PixelRect(x: 0, y: 0, width: 64, height: 48)),
    (ClipRect(x: 0, y: 0, width: 1, height: 1), 64, 48, PixelRect(x: 0, y: 0, width: 64, height: 48)),
    (ClipRect(x: 0, y: 0, width: 0.5, height: 0.5), 64, 48, PixelRect(x: 0, y: 0, width: 32, height: 24)),
    (ClipRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5), 64, 48, PixelRect(x: 32, y: 24, width: 32, height: 24)),
    // Edges round to the nearest pixel: 0.3 × 10 = 3, 0.7 × 10 = 7.
    (ClipRect(x: 0.3, y: 0.25, width: 0.4, height: 0.5), 10, 4, PixelRect(x: 3, y: 1, width: 4, height: 2)),
    // 1/3 of 100 = 33.3 → 33; 2/3 → 66.7 → 67.
    (ClipRect(x: 1.0 / 3, y: 0, width: 1.0 / 3, height: 1), 100, 1, PixelRect(x: 33, y: 0, width: 34, height: 1)),
    // A sliver thinner than a pixel still keeps one.
    (ClipRect(x: 0.999, y: 0, width: 0.001, height: 1), 20, 10, PixelRect(x: 19, y: 0, width: 1, height: 10)),
    (ClipRect(x: 0.5, y: 0.5, width: 0.0001, height: 0.0001), 3, 3, PixelRect(x: 2, y: 2, width: 1, height: 1)),
    // Out of the unit square (not validated here) is clamped to the image.
    (ClipRect(x: -1, y: 0.5, width: 3, height: 2), 10, 10, PixelRect(x: 0, y: 5, width: 10, height: 5)),
    (ClipRect(x: 2, y: 2, width: 1, height: 1), 10, 10, PixelRect(x: 9, y: 9, width: 1, height: 1)),
    (ClipRect(x: .nan, y: 0, width: 1, height: 1), 10, 10, PixelRect(x: 0, y: 0, width: 10, height: 10)),
    (ClipRect(x: 0, y: 0, width: 0.5, height: 0.5), 1, 1, PixelRect(x: 0, y: 0, width: 1, height: 1)),
  ]

  @Test(arguments: crops)
  func crop(_ clip: ClipRect?, _ width: Int, _ height: Int, _ expected: PixelRect) {
    #expect(ThumbnailGeometry.crop(clip, width: width, height: height) == expected)
  }

  // (source width, height, box) → fitted size
  static let fits: [(Int, Int, ThumbnailBox, Int, Int)] = [
    (64, 48, .default, 225, 169),   // 4:3 limited by height
    (32, 24, .default, 225, 169),   // scaled up as well as down
    (1920, 1080, .default, 300, 169),  // 16:9 → 300 × 168.75 → 169
    (1000, 100, .default, 300, 30),  // wide: limited by width
    (100, 1000, .default, 17, 169),  // tall: 16.9 → 17
    (10_000, 1, .default, 300, 1),  // never below 1
    (1, 10_000, .default, 1, 169),
    (300, 169, .default, 300, 169),
    (50, 50, ThumbnailBox(width: 64, height: 64), 64, 64),
    (0, 0, .default, 169, 169),  // a degenerate size is treated as 1 × 1
  ]

  @Test(arguments: fits)
  func fit(_ width: Int, _ height: Int, _ box: ThumbnailBox, _ w: Int, _ h: Int) {
    let size = ThumbnailGeometry.fit(width: width, height: height, in: box)
    #expect(size.width == w && size.height == h)
    #expect(size.width <= box.width && size.height <= box.height)
  }

  @Test func fittingKeepsTheAspectRatioWithinAPixel() {
    for (w, h) in [(64, 48), (1920, 1080), (333, 777), (17, 5), (4096, 4095)] {
      let size = ThumbnailGeometry.fit(width: w, height: h, in: .default)
      let exact = Double(w) / Double(h)
      // Rounding each side moves the ratio by at most half a pixel on either side.
      let low = (Double(size.width) - 0.5) / (Double(size.height) + 0.5)
      let high = (Double(size.width) + 0.5) / (Double(size.height) - 0.5)
      #expect(low <= exact && exact <= high, "\(w)×\(h) → \(size)")
      #expect(size.width == 300 || size.height == 169, "one side touches the box")
    }
  }

  static let frames: [(Double?, Int, Int)] = [
    (nil, 4, 0), (0, 4, 0), (2, 4, 2), (3, 4, 3), (3.9, 4, 3), (4, 4, 3), (99, 4, 3),
    (-1, 4, 0), (.nan, 4, 0), (.infinity, 4, 0), (2, 1, 0), (2, 0, 0),
  ]

  @Test(arguments: frames)
  func frameIndex(_ time: Double?, _ count: Int, _ expected: Int) {
    #expect(ThumbnailGeometry.frameIndex(time: time, frameCount: count) == expected)
  }

  static let times: [(Double?, Double, Double)] = [
    (nil, 3, 0), (1.5, 3, 1.5), (3, 3, 3), (4, 3, 3), (-2, 3, 0), (.nan, 3, 0), (.infinity, 3, 0),
    (7, 0, 7),  // the duration is unknown: the time stands
  ]

  @Test(arguments: times)
  func movieTime(_ time: Double?, _ duration: Double, _ expected: Double) {
    #expect(ThumbnailGeometry.movieTime(time: time, duration: duration) == expected)
  }

  @Test func boxes() throws {
    #expect(try ThumbnailBox(parsing: "300x169") == .default)
    #expect(try ThumbnailBox(parsing: "64X48") == ThumbnailBox(width: 64, height: 48))
    #expect(try ThumbnailBox(parsing: "1×4096") == ThumbnailBox(width: 1, height: 4096))
    for bad in ["", "300", "300x", "x169", "0x10", "10x0", "-5x10", "4097x10", "axb", "1x2x3", "1.5x2"] {
      #expect(throws: ChimeError.self, "\(bad)") { try ThumbnailBox(parsing: bad, field: "box") }
      do throws(ChimeError) {
        _ = try ThumbnailBox(parsing: bad, field: "box")
      } catch {
        #expect(error.reason == "INVALID_THUMBNAIL_BOX" && error.code == .invalidArgument && error.field == "box")
      }
    }
  }
}
