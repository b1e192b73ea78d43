/// GIF87a/GIF89a: header, logical screen and colour tables, then image descriptors (each with
/// its LZW data sub-blocks) and extensions up to the trailer, counting frames and adding up the
/// graphic-control delays. Pixel data is not decompressed.
enum GIFParser {
  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "GIF"
    guard r.has(6, at: 0) else { throw .unrecognized("no GIF header") }
    let magic = try r.bytes(0, 6)
    guard magic == Array("GIF87a".utf8) || magic == Array("GIF89a".utf8) else {
      throw .unrecognized("no GIF header")
    }
    guard r.has(7, at: 6) else { throw .corrupt("GIF ends inside the logical screen descriptor") }
    let screen = try r.bytes(6, 7)
    var width = Bytes.u16le(screen, 0)
    var height = Bytes.u16le(screen, 2)
    var pos = 13
    if screen[4] & 0x80 != 0 {
      pos += 3 << (Int(screen[4] & 0x07) + 1)
      guard pos <= r.count else { throw .corrupt("GIF global colour table runs past the end of the file") }
    }
    var frames = 0
    var delayHundredths = 0
    var blocks = 0
    while true {
      blocks += 1
      guard blocks <= ParseLimits.maxElements else { throw .corrupt("GIF has more than \(ParseLimits.maxElements) blocks") }
      guard pos < r.count else {
        throw .corrupt("GIF ends at offset \(pos) without a trailer (truncated?)")
      }
      let introducer = try r.u8(pos)
      switch introducer {
      case 0x2C:
        guard r.has(10, at: pos) else { throw .corrupt("GIF image descriptor at offset \(pos) is cut off by the end of the file") }
        let d = try r.bytes(pos + 1, 9)
        let w = Bytes.u16le(d, 4)
        let h = Bytes.u16le(d, 6)
        guard w > 0, h > 0 else { throw .corrupt("GIF image at offset \(pos) has size \(w)×\(h)") }
        if frames == 0 && (width == 0 || height == 0) {
          width = w
          height = h
        }
        pos += 10
        if d[8] & 0x80 != 0 {
          pos += 3 << (Int(d[8] & 0x07) + 1)
        }
        guard pos < r.count else { throw .corrupt("GIF image data at offset \(pos) is missing (truncated?)") }
        let codeSize = try r.u8(pos)
        guard codeSize >= 1, codeSize <= 11 else {
          throw .corrupt("GIF image at offset \(pos) has an invalid LZW code size \(codeSize)")
        }
        pos = try skipSubBlocks(r, from: pos + 1, what: "image data")
        frames += 1
      case 0x21:
        guard r.has(2, at: pos) else { throw .corrupt("GIF extension at offset \(pos) is cut off by the end of the file") }
        let label = try r.u8(pos + 1)
        if label == 0xF9, r.has(6, at: pos + 2), try r.u8(pos + 2) >= 4 {
          delayHundredths += Int(try r.u16le(pos + 4))
        }
        pos = try skipSubBlocks(r, from: pos + 2, what: "extension \(hex(label))")
      case 0x3B:
        guard frames > 0 else { throw .corrupt("GIF has no image") }
        guard width > 0, height > 0 else { throw .corrupt("GIF has size \(width)×\(height)") }
        // Bytes after the trailer are tolerated.
        return MediaFacts(type: .gif, bytes: UInt64(r.count), width: UInt32(width), height: UInt32(height),
                          durationSeconds: Double(delayHundredths) / 100, frameCount: UInt32(frames))
      default:
        throw .corrupt("GIF has an unexpected byte \(hex(introducer)) at offset \(pos) (expected an image, an extension or the trailer)")
      }
    }
  }

  /// Skips data sub-blocks (a length byte then that many bytes) through the zero terminator and
  /// returns the offset after it.
  private static func skipSubBlocks(_ r: ByteReader, from start: Int, what: String) throws(MediaParseError) -> Int {
    var pos = start
    var count = 0
    while true {
      count += 1
      guard count <= ParseLimits.maxElements else { throw .corrupt("GIF \(what) has too many sub-blocks") }
      guard pos < r.count else {
        throw .corrupt("GIF \(what) starting at offset \(start) runs past the end of the file (truncated?)")
      }
      let size = Int(try r.u8(pos))
      if size == 0 { return pos + 1 }
      pos += 1 + size
    }
  }
}
