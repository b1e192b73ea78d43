/// PNG: signature, IHDR first, every chunk's length and CRC, PLTE/IDAT order, IEND.
/// Interlaced (Adam7) images are walked the same way; pixel data is not decompressed.
/// An animated PNG (APNG: `acTL` before the first IDAT) is counted: its frames are its `fcTL`
/// chunks, which must number what `acTL` declares, and its duration is the sum of their delays.
enum PNGParser {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "PNG"
    guard r.has(8, at: 0), try r.bytes(0, 8) == signature else {
      throw .unrecognized("no PNG signature")
    }
    var pos = 8
    var width: UInt32 = 0
    var height: UInt32 = 0
    var colorType: UInt8 = 0
    var sawIHDR = false, sawPLTE = false, sawIEND = false
    var idatState = 0  // 0 none yet, 1 in the IDAT run, 2 after it
    var chunks = 0
    var animation = APNGFrames()
    while !sawIEND {
      guard pos < r.count else {
        throw .corrupt("PNG ends at offset \(pos) without an IEND chunk (truncated?)")
      }
      chunks += 1
      guard chunks <= ParseLimits.maxElements else { throw .corrupt("PNG has more than \(ParseLimits.maxElements) chunks") }
      guard r.has(8, at: pos) else {
        throw .corrupt("PNG chunk header at offset \(pos) is cut off by the end of the file")
      }
      let length = Int(try r.u32be(pos))
      let typeBytes = try r.bytes(pos + 4, 4)
      let type = typeBytes.allSatisfy(isLetter) ? String(decoding: typeBytes, as: UTF8.self) : fourCCString(Bytes.u32be(typeBytes, 0))
      guard typeBytes.allSatisfy(isLetter) else {
        throw .corrupt("PNG chunk at offset \(pos) has an invalid type \(type)")
      }
      guard length <= 0x7FFF_FFFF else {
        throw .corrupt("PNG chunk \(type) at offset \(pos) declares \(length) bytes, more than PNG allows")
      }
      let dataStart = pos + 8
      let end = try dataStart.adding(length, "PNG chunk \(type)").adding(4, "PNG chunk \(type)")
      guard end <= r.count else {
        throw .corrupt("PNG chunk \(type) at offset \(pos) declares \(length) bytes, past the end of the file (size \(r.count))")
      }
      if !sawIHDR {
        guard type == "IHDR" else { throw .corrupt("PNG's first chunk is \(type), not IHDR") }
      }
      var crc = CRC32()
      crc.update(typeBytes)
      try r.forEachPiece(dataStart, length) { crc.update($0) }
      let stored = try r.u32be(dataStart + length)
      guard stored == crc.value else {
        throw .corrupt("PNG chunk \(type) CRC mismatch at offset \(pos)")
      }

      if idatState == 1 && type != "IDAT" { idatState = 2 }
      switch type {
      case "IHDR":
        guard !sawIHDR else { throw .corrupt("PNG has a second IHDR at offset \(pos)") }
        guard length == 13 else { throw .corrupt("PNG IHDR is \(length) bytes, not 13") }
        let h = try r.bytes(dataStart, 13)
        width = Bytes.u32be(h, 0)
        height = Bytes.u32be(h, 4)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
          throw .corrupt("PNG IHDR has an invalid size \(width)×\(height)")
        }
        let depth = h[8]
        colorType = h[9]
        let allowed: [UInt8]
        switch colorType {
        case 0: allowed = [1, 2, 4, 8, 16]
        case 3: allowed = [1, 2, 4, 8]
        case 2, 4, 6: allowed = [8, 16]
        default: throw .corrupt("PNG IHDR has an invalid colour type \(colorType)")
        }
        guard allowed.contains(depth) else {
          throw .corrupt("PNG IHDR bit depth \(depth) is invalid for colour type \(colorType)")
        }
        guard h[10] == 0, h[11] == 0 else { throw .corrupt("PNG IHDR has an unknown compression or filter method") }
        guard h[12] <= 1 else { throw .corrupt("PNG IHDR has an unknown interlace method \(h[12])") }
        sawIHDR = true
      case "PLTE":
        guard !sawPLTE, idatState == 0 else { throw .corrupt("PNG PLTE at offset \(pos) is out of place") }
        guard length > 0, length % 3 == 0, length <= 768 else { throw .corrupt("PNG PLTE is \(length) bytes, not 3…768 in steps of 3") }
        guard colorType != 0, colorType != 4 else { throw .corrupt("PNG greyscale image has a PLTE chunk") }
        sawPLTE = true
      case "IDAT":
        guard idatState != 2 else { throw .corrupt("PNG IDAT at offset \(pos) is not with the other IDAT chunks") }
        if colorType == 3 && !sawPLTE { throw .corrupt("PNG palette image has IDAT before PLTE") }
        idatState = 1
      case "acTL":
        guard idatState == 0 else { throw .corrupt("PNG acTL at offset \(pos) comes after the image data") }
        guard length == 8 else { throw .corrupt("PNG acTL is \(length) bytes, not 8") }
        try animation.control(try r.u32be(dataStart), at: pos)
      case "fcTL":
        guard length == 26 else { throw .corrupt("PNG fcTL at offset \(pos) is \(length) bytes, not 26") }
        let f = try r.bytes(dataStart, 26)
        try animation.frame(f, canvas: (width, height), at: pos)
      case "IEND":
        guard length == 0 else { throw .corrupt("PNG IEND is \(length) bytes, not 0") }
        guard idatState != 0 else { throw .corrupt("PNG has no IDAT chunk") }
        sawIEND = true
      default:
        // Bit 5 of the first byte clear means critical: a decoder must understand it.
        guard typeBytes[0] & 0x20 != 0 else {
          throw .corrupt("PNG has an unknown critical chunk \(type) at offset \(pos)")
        }
      }
      pos = end
    }
    // Bytes after IEND are tolerated: the image is whole without them.
    guard let declared = animation.declared else {
      return MediaFacts(type: .png, bytes: UInt64(r.count), width: width, height: height, frameCount: 1)
    }
    guard animation.frames == Int(declared) else {
      throw .corrupt("APNG acTL declares \(declared) frames but the file has \(animation.frames) fcTL chunks")
    }
    return MediaFacts(type: .png, bytes: UInt64(r.count), width: width, height: height,
                      durationSeconds: animation.seconds, frameCount: declared)
  }

  private static func isLetter(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
  }
}

/// The animation chunks of an APNG: `acTL` (frame count) and each frame's `fcTL`, checked as
/// the APNG specification requires (one acTL, frames inside the canvas, a non-zero count).
struct APNGFrames {
  /// `acTL`'s frame count; nil for a still PNG.
  private(set) var declared: UInt32?
  private(set) var frames = 0
  private(set) var seconds = 0.0

  mutating func control(_ count: UInt32, at pos: Int) throws(MediaParseError) {
    guard declared == nil else { throw .corrupt("PNG has a second acTL at offset \(pos)") }
    guard count > 0, count <= UInt32(ParseLimits.maxElements) else {
      throw .corrupt("APNG acTL at offset \(pos) declares \(count) frames")
    }
    declared = count
  }

  /// One fcTL's 26 bytes: sequence, width, height, x, y, delay numerator and denominator,
  /// dispose and blend operations.
  mutating func frame(_ f: [UInt8], canvas: (width: UInt32, height: UInt32), at pos: Int) throws(MediaParseError) {
    guard declared != nil else { throw .corrupt("PNG fcTL at offset \(pos) without an acTL before the image data") }
    let w = UInt64(Bytes.u32be(f, 4)), h = UInt64(Bytes.u32be(f, 8))
    let x = UInt64(Bytes.u32be(f, 12)), y = UInt64(Bytes.u32be(f, 16))
    guard w > 0, h > 0, x + w <= UInt64(canvas.width), y + h <= UInt64(canvas.height) else {
      throw .corrupt("APNG frame at offset \(pos) (\(w)×\(h) at \(x),\(y)) leaves the \(canvas.width)×\(canvas.height) canvas")
    }
    guard f[24] <= 2, f[25] <= 1 else {
      throw .corrupt("APNG frame at offset \(pos) has an unknown dispose (\(f[24])) or blend (\(f[25])) operation")
    }
    let numerator = Double(Bytes.u16be(f, 20))
    let denominator = Bytes.u16be(f, 22)
    // A denominator of 0 means hundredths of a second.
    seconds += numerator / Double(denominator == 0 ? 100 : denominator)
    frames += 1
    guard frames <= Int(declared ?? 0) else {
      throw .corrupt("APNG has more fcTL chunks than the \(declared ?? 0) frames its acTL declares (offset \(pos))")
    }
  }
}
