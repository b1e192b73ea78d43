/// MPEG-1 system streams and MPEG-2 program streams: pack headers (whose marker bits say MPEG-1
/// or MPEG-2), system headers and PES packets, each inside the file, up to the program end code
/// or the end of the file. The end code is optional here because ffmpeg never writes it, so a
/// stream cut exactly at a packet boundary cannot be told from a whole one. Zero bytes between
/// packets (sector padding) are skipped, up to `maxZeroStuffing`. The video packets' payload is
/// read by `MPEGVideoScan` (size, aspect, frame rate, frames, duration).
enum MPEGPSParser {
  /// The most zero bytes skipped between two packs or packets. Video CD and DVD authoring tools
  /// pad a pack out to its sector with zeros (k3b's Video CD template has 22); demuxers resync
  /// over them. A longer run is damage.
  static let maxZeroStuffing = 4096

  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "MPEG"
    guard r.has(5, at: 0), try r.u32be(0) == 0x0000_01BA else { throw .unrecognized("no MPEG pack header") }
    var mpeg2: Bool?
    var video = MPEGVideoScan(strict: false)
    var pos = 0
    var packets = 0
    var packs = 0
    scan: while pos < r.count {
      packets += 1
      guard packets <= ParseLimits.maxElements else { throw .corrupt("MPEG has more than \(ParseLimits.maxElements) packets") }
      guard r.has(4, at: pos) else {
        throw .corrupt("MPEG ends at offset \(pos) inside a start code (truncated?)")
      }
      var code = try r.u32be(pos)
      if code >> 8 != 0x000001, code >> 24 == 0 {
        let zeros = try zeroRun(r, from: pos)
        if zeros == r.remaining(from: pos) { break scan }  // padded to the end with zeros
        guard zeros - 2 <= maxZeroStuffing else {
          throw .corrupt("MPEG has more than \(maxZeroStuffing) zero bytes from offset \(pos) where a start code belongs")
        }
        // The run's last two zeros are the next start code's own.
        if zeros >= 2, try r.u8(pos + zeros) == 0x01 {
          pos += zeros - 2
          guard r.has(4, at: pos) else { throw .corrupt("MPEG ends at offset \(pos) inside a start code (truncated?)") }
          code = try r.u32be(pos)
        }
      }
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
    video.finish()
    if let problem = video.problem { throw .corrupt(problem) }
    guard video.hasSequence else { throw .corrupt("MPEG has no video sequence header") }
    return facts(video, type: isMPEG2 ? .mpeg2Video : .mpeg, bytes: r.count)
  }

  /// The facts a video scan found.
  static func facts(_ video: MPEGVideoScan, type: MediaType, bytes: Int) -> MediaFacts {
    MediaFacts(type: type, bytes: UInt64(bytes), width: UInt32(video.displayWidth), height: UInt32(video.height),
               pixelWidth: UInt32(video.width), pixelHeight: UInt32(video.height),
               durationSeconds: video.seconds, frameCount: UInt32(clamping: video.frames))
  }

  /// How many zero bytes start at `pos` (up to the end of the file, or one past the bound).
  private static func zeroRun(_ r: ByteReader, from pos: Int) throws(MediaParseError) -> Int {
    let span = min(r.remaining(from: pos), maxZeroStuffing + 3)
    let bytes = try r.bytes(pos, span)
    return bytes.firstIndex(where: { $0 != 0 }) ?? span
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
