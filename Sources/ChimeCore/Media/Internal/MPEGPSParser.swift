/// MPEG-1 system streams and MPEG-2 program streams: pack headers (whose marker bits say MPEG-1
/// or MPEG-2), system headers and PES packets, each inside the file, up to the program end code
/// or the end of the file. The end code is optional here because ffmpeg never writes it, so a
/// stream cut exactly at a packet boundary cannot be told from a whole one. The video elementary stream is scanned for the sequence header
/// (size, frame rate) and picture start codes (frame count; duration = pictures ÷ frame rate,
/// so field-coded pictures count twice).
enum MPEGPSParser {
  private static let frameRates: [Double] = [0, 24000.0 / 1001, 24, 25, 30000.0 / 1001, 30, 50, 60000.0 / 1001, 60]

  /// Start codes found in the video payload, carried across packet boundaries.
  private struct VideoScan {
    var last3: UInt32 = 0xFFFF_FF  // the last three bytes seen, in the low 24 bits
    var pictures = 0
    var header: [UInt8] = []  // bytes after the first sequence header start code
    var collecting = false
    var width = 0, height = 0, rateCode = 0

    mutating func feed(_ bytes: [UInt8]) {
      for b in bytes {
        if collecting {
          header.append(b)
          if header.count == 4 {
            collecting = false
            width = Int(header[0]) << 4 | Int(header[1]) >> 4
            height = Int(header[1] & 0x0F) << 8 | Int(header[2])
            rateCode = Int(header[3] & 0x0F)
          }
        }
        if last3 == 0x000001 {
          if b == 0x00 {
            pictures += 1
          } else if b == 0xB3 && width == 0 && !collecting {
            collecting = true
            header = []
          }
        }
        last3 = (last3 << 8 | UInt32(b)) & 0xFF_FFFF
      }
    }
  }

  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "MPEG"
    guard r.has(5, at: 0), try r.u32be(0) == 0x0000_01BA else { throw .unrecognized("no MPEG pack header") }
    var mpeg2: Bool?
    var video = VideoScan()
    var pos = 0
    var packets = 0
    var packs = 0
    scan: while pos < r.count {
      packets += 1
      guard packets <= ParseLimits.maxElements else { throw .corrupt("MPEG has more than \(ParseLimits.maxElements) packets") }
      guard r.has(4, at: pos) else {
        throw .corrupt("MPEG ends at offset \(pos) inside a start code (truncated?)")
      }
      let code = try r.u32be(pos)
      guard code >> 8 == 0x000001 else {
        throw .corrupt("MPEG expected a start code at offset \(pos), found \(hex(code, width: 8))")
      }
      let id = UInt8(code & 0xFF)
      switch id {
      case 0xBA:
        packs += 1
        guard r.has(5, at: pos) else { throw .corrupt("MPEG pack header at offset \(pos) is cut off") }
        let first = try r.u8(pos + 4)
        let isMPEG2: Bool
        if first >> 6 == 0b01 {
          isMPEG2 = true
        } else if first >> 4 == 0b0010 {
          isMPEG2 = false
        } else {
          throw .corrupt("MPEG pack header at offset \(pos) is neither MPEG-1 nor MPEG-2 (\(hex(first)))")
        }
        if let known = mpeg2, known != isMPEG2 {
          throw .corrupt("MPEG pack header at offset \(pos) switches between MPEG-1 and MPEG-2")
        }
        mpeg2 = isMPEG2
        if isMPEG2 {
          guard r.has(14, at: pos) else { throw .corrupt("MPEG-2 pack header at offset \(pos) is cut off (truncated?)") }
          let p = try r.bytes(pos, 14)
          guard p[4] & 0x04 != 0, p[6] & 0x04 != 0, p[8] & 0x04 != 0, p[9] & 0x01 != 0, p[12] & 0x03 == 0x03 else {
            throw .corrupt("MPEG-2 pack header at offset \(pos) has wrong marker bits")
          }
          let stuffing = Int(p[13] & 0x07)
          guard r.has(14 + stuffing, at: pos) else { throw .corrupt("MPEG-2 pack header at offset \(pos) is cut off (truncated?)") }
          pos += 14 + stuffing
        } else {
          guard r.has(12, at: pos) else { throw .corrupt("MPEG-1 pack header at offset \(pos) is cut off (truncated?)") }
          let p = try r.bytes(pos, 12)
          guard p[4] & 0x01 != 0, p[6] & 0x01 != 0, p[8] & 0x01 != 0, p[9] & 0x80 != 0, p[11] & 0x01 != 0 else {
            throw .corrupt("MPEG-1 pack header at offset \(pos) has wrong marker bits")
          }
          pos += 12
        }
      case 0xB9:
        break scan  // program end; anything after it is tolerated
      case 0xBB...0xFF:
        guard r.has(6, at: pos) else { throw .corrupt("MPEG packet header at offset \(pos) is cut off (truncated?)") }
        let length = Int(try r.u16be(pos + 4))
        let end = pos + 6 + length
        guard end <= r.count else {
          throw .corrupt("MPEG packet \(hex(id)) at offset \(pos) declares \(length) bytes, past the end of the file (size \(r.count))")
        }
        if id >= 0xE0 && id <= 0xEF {
          let payload = try payloadStart(r, packet: pos, end: end)
          try r.forEachPiece(payload, end - payload) { video.feed($0) }
        }
        pos = end
      default:
        throw .corrupt("MPEG has an unexpected start code \(hex(code, width: 8)) at offset \(pos)")
      }
    }
    guard packs > 0, let isMPEG2 = mpeg2 else { throw .corrupt("MPEG has no pack header") }
    guard video.width > 0, video.height > 0 else {
      throw .corrupt("MPEG has no video sequence header (or one with size \(video.width)×\(video.height))")
    }
    let rate = video.rateCode < frameRates.count ? frameRates[video.rateCode] : 0
    let seconds = rate > 0 ? Double(video.pictures) / rate : 0
    return MediaFacts(type: isMPEG2 ? .mpeg2Video : .mpeg, bytes: UInt64(r.count), width: UInt32(video.width),
                      height: UInt32(video.height), durationSeconds: seconds, frameCount: UInt32(clamping: video.pictures))
  }

  /// Where a PES packet's payload starts, past its MPEG-2 or MPEG-1 header fields.
  private static func payloadStart(_ r: ByteReader, packet: Int, end: Int) throws(MediaParseError) -> Int {
    var at = packet + 6
    guard at < end else { return end }
    let first = try r.u8(at)
    if first & 0xC0 == 0x80 {
      guard end - at >= 3 else { throw .corrupt("MPEG PES header at offset \(packet) is cut off") }
      let headerLength = Int(try r.u8(at + 2))
      at += 3 + headerLength
      guard at <= end else { throw .corrupt("MPEG PES header at offset \(packet) is longer than its packet") }
      return at
    }
    // MPEG-1: up to 16 stuffing bytes, optional STD buffer size, then PTS/DTS or 0x0F.
    var stuffing = 0
    while at < end, try r.u8(at) == 0xFF {
      stuffing += 1
      guard stuffing <= 16 else { throw .corrupt("MPEG packet at offset \(packet) has more than 16 stuffing bytes") }
      at += 1
    }
    guard at < end else { throw .corrupt("MPEG packet header at offset \(packet) is cut off") }
    if try r.u8(at) & 0xC0 == 0x40 { at += 2 }
    guard at < end else { throw .corrupt("MPEG packet header at offset \(packet) is cut off") }
    let flags = try r.u8(at)
    switch flags & 0xF0 {
    case 0x20: at += 5
    case 0x30: at += 10
    default:
      guard flags == 0x0F else {
        throw .corrupt("MPEG packet at offset \(packet) has an invalid header byte \(hex(flags))")
      }
      at += 1
    }
    guard at <= end else { throw .corrupt("MPEG packet header at offset \(packet) is longer than its packet") }
    return at
  }
}
