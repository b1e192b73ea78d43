/// ISO base media file format (MP4, M4A, M4V, 3GP): `ftyp` first, a box tree whose every size
/// fits its parent, exactly one `moov` with an `mvhd` (timescale, duration), and its tracks'
/// handlers (`vide`, `soun`), sizes (`tkhd`, `stsd`) and sample counts (`stsz`/`stz2`).
/// A file with a video track is a movie (`public.mpeg-4`); with only audio, audio
/// (`public.mpeg-4-audio`).
enum ISOBMFFParser {
  struct Box {
    var type: UInt32
    var start: Int
    var payload: Int
    var end: Int
    var name: String { fourCCString(type) }
    var payloadSize: Int { end - payload }
  }

  /// QuickTime and HEIF/AVIF files are ISO-BMFF too, but not MPEG-4 audio or video.
  private static let foreignBrands: [UInt32: String] = [
    fourCC("qt  "): "a QuickTime movie (com.apple.quicktime-movie)",
    fourCC("heic"): "a HEIF image (public.heic)", fourCC("heix"): "a HEIF image (public.heic)",
    fourCC("heim"): "a HEIF image (public.heic)", fourCC("heis"): "a HEIF image (public.heic)",
    fourCC("hevc"): "a HEIF image sequence (public.heics)", fourCC("hevx"): "a HEIF image sequence (public.heics)",
    fourCC("mif1"): "a HEIF image (public.heif)", fourCC("msf1"): "a HEIF image sequence (public.heif)",
    fourCC("avif"): "an AVIF image (public.avif)", fourCC("avis"): "an AVIF image sequence (public.avif)",
    fourCC("crx "): "a Canon raw image",
  ]

  struct Track {
    var handler: UInt32 = 0
    var width: UInt32 = 0
    var height: UInt32 = 0
    var samples: UInt32 = 0
    var duration: Double = 0
  }

  final class Walk {
    let r: ByteReader
    var boxes = 0
    init(_ r: ByteReader) { self.r = r }

    /// The boxes that exactly tile `start..<end`.
    func children(_ start: Int, _ end: Int, parent: String) throws(MediaParseError) -> [Box] {
      var out: [Box] = []
      var pos = start
      while pos < end {
        boxes += 1
        guard boxes <= ParseLimits.maxElements else { throw .corrupt("MPEG-4 has more than \(ParseLimits.maxElements) boxes") }
        guard end - pos >= 8 else {
          throw .corrupt("MPEG-4 box header at offset \(pos) in \(parent) is cut off after \(end - pos) bytes (truncated?)")
        }
        let size32 = try r.u32be(pos)
        let type = try r.u32be(pos + 4)
        var header = 8
        var size: Int
        switch size32 {
        case 0:
          size = end - pos  // extends to the end of its parent (the file, at the top level)
        case 1:
          guard end - pos >= 16 else { throw .corrupt("MPEG-4 box '\(fourCCString(type))' at offset \(pos) is cut off in its 64-bit size") }
          let large = try r.u64be(pos + 8)
          guard let s = Int(exactly: large), s >= 16 else {
            throw .corrupt("MPEG-4 box '\(fourCCString(type))' at offset \(pos) has an invalid 64-bit size \(large)")
          }
          size = s
          header = 16
        default:
          size = Int(size32)
          guard size >= 8 else { throw .corrupt("MPEG-4 box '\(fourCCString(type))' at offset \(pos) has an invalid size \(size)") }
        }
        if type == fourCC("uuid") { header += 16 }
        guard size <= end - pos else {
          throw .corrupt("MPEG-4 box '\(fourCCString(type))' at offset \(pos) declares \(size) bytes, past the end of \(parent) (\(end - pos) left)")
        }
        guard header <= size else { throw .corrupt("MPEG-4 box '\(fourCCString(type))' at offset \(pos) is smaller than its header") }
        out.append(Box(type: type, start: pos, payload: pos + header, end: pos + size))
        pos += size
      }
      return out
    }

    func fullBoxVersion(_ box: Box, minimum: Int) throws(MediaParseError) -> UInt8 {
      guard box.payloadSize >= minimum else {
        throw .corrupt("MPEG-4 box '\(box.name)' at offset \(box.start) is \(box.payloadSize) bytes, too short")
      }
      return try r.u8(box.payload)
    }
  }

  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "MPEG-4"
    guard r.has(8, at: 0), try r.u32be(4) == fourCC("ftyp") else { throw .unrecognized("no ftyp box") }
    let walk = Walk(r)
    let top = try walk.children(0, r.count, parent: "the file")
    guard let ftyp = top.first, ftyp.type == fourCC("ftyp") else { throw .unrecognized("no ftyp box") }
    guard ftyp.payloadSize >= 8, (ftyp.payloadSize - 8) % 4 == 0 else {
      throw .corrupt("MPEG-4 ftyp box is \(ftyp.payloadSize) bytes, not 8 + 4n")
    }
    let major = try r.u32be(ftyp.payload)
    if let foreign = foreignBrands[major] {
      throw .unrecognized("the file is \(foreign)")
    }
    let moovs = top.filter { $0.type == fourCC("moov") }
    guard moovs.count == 1, let moov = moovs.first else {
      throw .corrupt(moovs.isEmpty ? "MPEG-4 has no moov box" : "MPEG-4 has \(moovs.count) moov boxes")
    }
    guard top.contains(where: { $0.type == fourCC("mdat") }) else {
      throw .corrupt("MPEG-4 has no mdat box (no media data)")
    }

    var timescale: UInt32 = 0
    var duration: UInt64 = 0
    var sawMvhd = false
    var tracks: [Track] = []
    for box in try walk.children(moov.payload, moov.end, parent: "moov") {
      switch box.type {
      case fourCC("mvhd"):
        guard !sawMvhd else { throw .corrupt("MPEG-4 moov has two mvhd boxes") }
        sawMvhd = true
        let version = try walk.fullBoxVersion(box, minimum: 4)
        if version == 1 {
          guard box.payloadSize >= 32 else { throw .corrupt("MPEG-4 mvhd is too short") }
          timescale = try r.u32be(box.payload + 20)
          duration = try r.u64be(box.payload + 24)
        } else {
          guard box.payloadSize >= 20 else { throw .corrupt("MPEG-4 mvhd is too short") }
          timescale = try r.u32be(box.payload + 12)
          let d = try r.u32be(box.payload + 16)
          duration = d == 0xFFFF_FFFF ? 0 : UInt64(d)
        }
        if duration == UInt64.max { duration = 0 }
        guard timescale > 0 else { throw .corrupt("MPEG-4 mvhd has timescale 0") }
      case fourCC("trak"):
        tracks.append(try track(box, walk))
      default:
        break
      }
    }
    guard sawMvhd else { throw .corrupt("MPEG-4 moov has no mvhd box") }

    var seconds = Double(duration) / Double(timescale)
    if seconds == 0 {
      seconds = tracks.map(\.duration).max() ?? 0
    }
    if let video = tracks.first(where: { $0.handler == fourCC("vide") }) {
      return MediaFacts(type: .mpeg4, bytes: UInt64(r.count), width: video.width, height: video.height,
                        durationSeconds: seconds, frameCount: video.samples)
    }
    if tracks.contains(where: { $0.handler == fourCC("soun") }) {
      return MediaFacts(type: .mpeg4Audio, bytes: UInt64(r.count), durationSeconds: seconds)
    }
    throw .corrupt("MPEG-4 has no audio or video track")
  }

  private static func track(_ trak: Box, _ walk: Walk) throws(MediaParseError) -> Track {
    let r = walk.r
    var t = Track()
    var sawHdlr = false
    for box in try walk.children(trak.payload, trak.end, parent: "trak") {
      if box.type == fourCC("tkhd") {
        let version = try walk.fullBoxVersion(box, minimum: 4)
        let sizeAt = version == 1 ? 88 : 76
        guard box.payloadSize >= sizeAt + 8 else { throw .corrupt("MPEG-4 tkhd at offset \(box.start) is too short") }
        t.width = try r.u32be(box.payload + sizeAt) >> 16
        t.height = try r.u32be(box.payload + sizeAt + 4) >> 16
      } else if box.type == fourCC("mdia") {
        for m in try walk.children(box.payload, box.end, parent: "mdia") {
          switch m.type {
          case fourCC("mdhd"):
            let version = try walk.fullBoxVersion(m, minimum: 4)
            let (scale, length): (UInt32, UInt64)
            if version == 1 {
              guard m.payloadSize >= 32 else { throw .corrupt("MPEG-4 mdhd is too short") }
              (scale, length) = (try r.u32be(m.payload + 20), try r.u64be(m.payload + 24))
            } else {
              guard m.payloadSize >= 20 else { throw .corrupt("MPEG-4 mdhd is too short") }
              let d = try r.u32be(m.payload + 16)
              (scale, length) = (try r.u32be(m.payload + 12), d == 0xFFFF_FFFF ? 0 : UInt64(d))
            }
            guard scale > 0 else { throw .corrupt("MPEG-4 mdhd has timescale 0") }
            t.duration = length == UInt64.max ? 0 : Double(length) / Double(scale)
          case fourCC("hdlr"):
            guard m.payloadSize >= 12 else { throw .corrupt("MPEG-4 hdlr is too short") }
            guard !sawHdlr else { throw .corrupt("MPEG-4 mdia has two hdlr boxes") }
            sawHdlr = true
            t.handler = try r.u32be(m.payload + 8)
          case fourCC("minf"):
            try sampleTable(m, walk, into: &t)
          default:
            break
          }
        }
      }
    }
    return t
  }

  private static func sampleTable(_ minf: Box, _ walk: Walk, into t: inout Track) throws(MediaParseError) {
    let r = walk.r
    for box in try walk.children(minf.payload, minf.end, parent: "minf") where box.type == fourCC("stbl") {
      for s in try walk.children(box.payload, box.end, parent: "stbl") {
        switch s.type {
        case fourCC("stsz"):
          guard s.payloadSize >= 12 else { throw .corrupt("MPEG-4 stsz is too short") }
          let fixed = try r.u32be(s.payload + 4)
          let count = try r.u32be(s.payload + 8)
          if fixed == 0 {
            guard Int(count) <= (s.payloadSize - 12) / 4 else {
              throw .corrupt("MPEG-4 stsz at offset \(s.start) lists \(count) samples but holds \(s.payloadSize - 12) bytes")
            }
          }
          t.samples = count
        case fourCC("stz2"):
          guard s.payloadSize >= 12 else { throw .corrupt("MPEG-4 stz2 is too short") }
          t.samples = try r.u32be(s.payload + 8)
        case fourCC("stsd"):
          guard s.payloadSize >= 8 else { throw .corrupt("MPEG-4 stsd is too short") }
          let entries = try walk.children(s.payload + 8, s.end, parent: "stsd")
          guard !entries.isEmpty else { throw .corrupt("MPEG-4 stsd at offset \(s.start) has no sample entry") }
          // A visual sample entry: 6 reserved, 2 index, 16 predefined, then width and height.
          if let e = entries.first, t.width == 0 || t.height == 0, e.payloadSize >= 28 {
            let w = try r.u16be(e.payload + 24)
            let h = try r.u16be(e.payload + 26)
            if t.handler == fourCC("vide") || t.handler == 0 {
              t.width = UInt32(w)
              t.height = UInt32(h)
            }
          }
        default:
          break
        }
      }
    }
  }
}
