/// ISO base media file format (MP4, M4A, M4V, 3GP): `ftyp` first, a box tree whose every size
/// fits its parent, exactly one `moov` with an `mvhd` (timescale, duration), and its tracks'
/// handlers (`vide`, `soun`), sizes (`tkhd`, `stsd` with its `pasp`) and sample counts
/// (`stsz`/`stz2`). A fragmented file (an empty `moov` with `mvex`, then `moof` boxes) gets its
/// duration from `mehd`, else from the sum of its `trun` sample durations, and its frame count
/// from the `trun` sample counts. A file with a video track is a movie (`public.mpeg-4`); with
/// only audio, audio (`public.mpeg-4-audio`).
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
    var id: UInt32 = 0
    var handler: UInt32 = 0
    /// `tkhd`'s presentation size, and whether its matrix turns the picture a quarter (a phone's
    /// portrait movie).
    var width: UInt32 = 0
    var height: UInt32 = 0
    var quarterTurn = false
    /// The sample entry's stored size and its `pasp` (horizontal and vertical spacing).
    var pixelWidth: UInt32 = 0
    var pixelHeight: UInt32 = 0
    var aspect: (h: UInt32, v: UInt32)?
    var samples: UInt32 = 0
    var duration: Double = 0
    var timescale: UInt32 = 0
    /// `trex`'s default sample duration, for `trun`s that give none.
    var defaultSampleDuration: UInt32 = 0
    /// Samples and ticks (in `timescale`) the fragments hold.
    var fragmentSamples: UInt64 = 0
    var fragmentTicks: UInt64 = 0

    /// The size a viewer sees: the stored size × `pasp` where there is one, else `tkhd`'s,
    /// else the stored size; width and height swapped when the matrix turns it a quarter.
    var displaySize: (width: UInt32, height: UInt32) {
      let (w, h) = unturnedSize
      return quarterTurn ? (h, w) : (w, h)
    }

    private var unturnedSize: (width: UInt32, height: UInt32) {
      if let aspect, aspect.h > 0, aspect.v > 0, pixelWidth > 0, pixelHeight > 0 {
        let w = (Double(pixelWidth) * Double(aspect.h) / Double(aspect.v)).rounded()
        return (UInt32(clamping: Int(min(w, Double(UInt32.max)))), pixelHeight)
      }
      if width > 0 && height > 0 { return (width, height) }
      return (pixelWidth, pixelHeight)
    }
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
    var mvex: Box?
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
      case fourCC("mvex"):
        mvex = box
      default:
        break
      }
    }
    guard sawMvhd else { throw .corrupt("MPEG-4 moov has no mvhd box") }
    var fragmentDuration: UInt64 = 0
    if let mvex {
      fragmentDuration = try Fragments.movieExtends(mvex, walk, tracks: &tracks)
    }
    let moofs = top.filter { $0.type == fourCC("moof") }
    if !moofs.isEmpty {
      try Fragments.sum(moofs, walk, tracks: &tracks)
    }

    var seconds = Double(duration) / Double(timescale)
    if seconds == 0 && fragmentDuration > 0 {
      seconds = Double(fragmentDuration) / Double(timescale)
    }
    if seconds == 0 {
      seconds = tracks.map { t in
        t.fragmentTicks > 0 && t.timescale > 0 ? max(t.duration, Double(t.fragmentTicks) / Double(t.timescale)) : t.duration
      }.max() ?? 0
    }
    if let video = tracks.first(where: { $0.handler == fourCC("vide") }) {
      let display = video.displaySize
      let frames = video.samples > 0 ? video.samples : UInt32(clamping: video.fragmentSamples)
      return MediaFacts(type: .mpeg4, bytes: UInt64(r.count), width: display.width, height: display.height,
                        pixelWidth: video.pixelWidth > 0 ? video.pixelWidth : display.width,
                        pixelHeight: video.pixelHeight > 0 ? video.pixelHeight : display.height,
                        durationSeconds: seconds, frameCount: frames)
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
        t.id = try r.u32be(box.payload + (version == 1 ? 20 : 12))
        // The matrix {a b u, c d v, x y w} in 16.16: a quarter turn has a = d = 0.
        let matrix = box.payload + (version == 1 ? 52 : 40)
        let (a, b, c, d) = (try r.u32be(matrix), try r.u32be(matrix + 4), try r.u32be(matrix + 12), try r.u32be(matrix + 16))
        t.quarterTurn = a == 0 && d == 0 && b != 0 && c != 0
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
            t.timescale = scale
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
          // A visual sample entry: 6 reserved, 2 index, 16 predefined, then width and height;
          // its boxes (`avcC`, `pasp`, ...) follow its 78 bytes.
          if let e = entries.first, t.handler == fourCC("vide") || t.handler == 0, e.payloadSize >= 28 {
            t.pixelWidth = UInt32(try r.u16be(e.payload + 24))
            t.pixelHeight = UInt32(try r.u16be(e.payload + 26))
            if let pasp = try Self.optionalBox(fourCC("pasp"), r, from: e.payload + 78, to: e.end), pasp.payloadSize >= 8 {
              t.aspect = (try r.u32be(pasp.payload), try r.u32be(pasp.payload + 4))
            }
          }
        default:
          break
        }
      }
    }
  }

  /// The first box of `type` among those at `start..<end`, read leniently: sample entries'
  /// trailing boxes are not always well formed (some writers end them with zero bytes), and
  /// only `pasp` is wanted from them, so a box that does not fit ends the search.
  private static func optionalBox(_ type: UInt32, _ r: ByteReader, from start: Int, to end: Int) throws(MediaParseError) -> Box? {
    var pos = start
    var seen = 0
    while pos + 8 <= end, seen < 64 {
      seen += 1
      let size = Int(try r.u32be(pos))
      guard size >= 8, size <= end - pos else { return nil }
      if try r.u32be(pos + 4) == type { return Box(type: type, start: pos, payload: pos + 8, end: pos + size) }
      pos += size
    }
    return nil
  }
}
