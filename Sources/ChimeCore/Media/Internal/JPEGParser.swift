/// JPEG (JFIF/EXIF): SOI, marker segments with their lengths, a frame header (SOF) for the size,
/// each scan (SOS) and its entropy-coded data up to the next marker, and EOI. Baseline,
/// extended, progressive, lossless and arithmetic-coded frames are all walked the same way.
/// An EXIF orientation that turns the picture a quarter (5–8) swaps the reported width and
/// height: they are the size the viewer sees, as the thumbnail is turned.
enum JPEGParser {
  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "JPEG"
    guard r.has(3, at: 0), try r.bytes(0, 3) == [0xFF, 0xD8, 0xFF] else {
      throw .unrecognized("no JPEG start-of-image marker")
    }
    var pos = 2
    var width: UInt16 = 0
    var height: UInt16 = 0
    var sawSOF = false
    var orientation: UInt16?
    var scans = 0
    var segments = 0
    while true {
      segments += 1
      guard segments <= ParseLimits.maxElements else { throw .corrupt("JPEG has more than \(ParseLimits.maxElements) segments") }
      guard pos < r.count else {
        throw .corrupt("JPEG ends at offset \(pos) without an end-of-image marker (truncated?)")
      }
      guard try r.u8(pos) == 0xFF else {
        throw .corrupt("JPEG expected a marker at offset \(pos), found \(hex(try r.u8(pos)))")
      }
      // Any number of 0xFF fill bytes may precede a marker.
      var markerAt = pos
      var marker: UInt8 = 0xFF
      while marker == 0xFF {
        markerAt += 1
        guard markerAt < r.count else {
          throw .corrupt("JPEG ends at offset \(markerAt) inside a marker (truncated?)")
        }
        marker = try r.u8(markerAt)
      }
      let segmentStart = markerAt + 1
      switch marker {
      case 0x00:
        throw .corrupt("JPEG has a stuffed zero where a marker belongs at offset \(pos)")
      case 0xD8:
        throw .corrupt("JPEG has a second start-of-image marker at offset \(pos)")
      case 0xD9:
        guard sawSOF else { throw .corrupt("JPEG ends without a frame header (SOF)") }
        guard scans > 0 else { throw .corrupt("JPEG ends without any scan (SOS)") }
        // Data after EOI (a phone's trailer, a motion photo's video) is tolerated.
        let turned = (5...8).contains(orientation ?? 1)
        return MediaFacts(type: .jpeg, bytes: UInt64(r.count), width: UInt32(turned ? height : width),
                          height: UInt32(turned ? width : height), pixelWidth: UInt32(width), pixelHeight: UInt32(height), frameCount: 1)
      case 0x01, 0xD0...0xD7:
        pos = segmentStart
        continue
      default:
        break
      }
      guard r.has(2, at: segmentStart) else {
        throw .corrupt("JPEG marker \(hex(marker)) at offset \(markerAt - 1) has no length (truncated?)")
      }
      let length = Int(try r.u16be(segmentStart))
      guard length >= 2 else {
        throw .corrupt("JPEG segment \(hex(marker)) at offset \(markerAt - 1) has an invalid length \(length)")
      }
      let segmentEnd = segmentStart + length
      guard segmentEnd <= r.count else {
        throw .corrupt("JPEG segment \(hex(marker)) at offset \(markerAt - 1) declares \(length) bytes, past the end of the file (size \(r.count))")
      }
      switch marker {
      case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
        guard !sawSOF else { throw .corrupt("JPEG has a second frame header at offset \(markerAt - 1)") }
        guard length >= 8 else { throw .corrupt("JPEG frame header is \(length) bytes, too short") }
        let f = try r.bytes(segmentStart + 2, 6)
        let precision = f[0]
        height = Bytes.u16be(f, 1)
        width = Bytes.u16be(f, 3)
        let components = Int(f[5])
        guard precision >= 2, precision <= 16 else { throw .corrupt("JPEG frame header has sample precision \(precision)") }
        guard components >= 1, length == 8 + 3 * components else {
          throw .corrupt("JPEG frame header length \(length) does not match its \(components) components")
        }
        guard width > 0 else { throw .corrupt("JPEG frame header has width 0") }
        guard height > 0 else { throw .corrupt("JPEG frame header has height 0 (a DNL-defined height is not supported)") }
        sawSOF = true
        pos = segmentEnd
      case 0xDA:
        guard sawSOF else { throw .corrupt("JPEG scan at offset \(markerAt - 1) comes before the frame header") }
        guard length >= 3 else { throw .corrupt("JPEG scan header is \(length) bytes, too short") }
        let ns = Int(try r.u8(segmentStart + 2))
        guard ns >= 1, ns <= 4, length == 6 + 2 * ns else {
          throw .corrupt("JPEG scan header at offset \(markerAt - 1) has length \(length) for \(ns) components")
        }
        scans += 1
        pos = try entropyEnd(r, from: segmentEnd)
      case 0xE1 where orientation == nil:
        orientation = try exifOrientation(r, segmentStart + 2, segmentEnd)
        pos = segmentEnd
      default:
        pos = segmentEnd
      }
    }
  }

  /// The offset of the 0xFF that starts the first marker after entropy-coded data beginning at
  /// `start` (stuffed zeros and restart markers belong to the data).
  private static func entropyEnd(_ r: ByteReader, from start: Int) throws(MediaParseError) -> Int {
    var at = start
    while at < r.count {
      let n = min(ParseLimits.window, r.count - at)
      let block = try r.bytes(at, n)
      var i = 0
      while i < n {
        if block[i] != 0xFF {
          i += 1
          continue
        }
        let nextOffset = at + i + 1
        guard nextOffset < r.count else {
          throw .corrupt("JPEG ends at offset \(nextOffset) inside a marker in the scan data (truncated?)")
        }
        let next = i + 1 < n ? block[i + 1] : try r.u8(nextOffset)
        if next == 0x00 || (next >= 0xD0 && next <= 0xD7) {
          i += 2
        } else if next == 0xFF {
          i += 1
        } else {
          return at + i
        }
      }
      at += i
    }
    throw .corrupt("JPEG scan data starting at offset \(start) runs to the end of the file without an end-of-image marker (truncated?)")
  }

  /// The EXIF orientation (tag 0x0112 of IFD0) in an APP1 segment's data at `start..<end`; nil
  /// when it is not EXIF or has none. A malformed EXIF block is ignored, as decoders do.
  private static func exifOrientation(_ r: ByteReader, _ start: Int, _ end: Int) throws(MediaParseError) -> UInt16? {
    guard end - start >= 14, try r.bytes(start, 6) == Array("Exif\u{0}\u{0}".utf8) else { return nil }
    let tiff = start + 6
    let order = try r.bytes(tiff, 2)
    let little: Bool
    switch order {
    case [0x49, 0x49]: little = true
    case [0x4D, 0x4D]: little = false
    default: return nil
    }
    func u16(_ at: Int) throws(MediaParseError) -> UInt16 { little ? try r.u16le(at) : try r.u16be(at) }
    func u32(_ at: Int) throws(MediaParseError) -> UInt32 { little ? try r.u32le(at) : try r.u32be(at) }
    let ifd = tiff + Int(try u32(tiff + 4))
    guard ifd >= tiff + 8, ifd + 2 <= end else { return nil }
    let entries = Int(try u16(ifd))
    for i in 0..<min(entries, 512) {
      let entry = ifd + 2 + 12 * i
      guard entry + 12 <= end else { return nil }
      if try u16(entry) == 0x0112 {
        let value = try u16(entry + 8)
        return (1...8).contains(value) ? value : nil
      }
    }
    return nil
  }
}
