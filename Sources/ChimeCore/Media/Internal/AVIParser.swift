/// AVI: `RIFF`/`AVI ` whose first chunk is `LIST hdrl` starting with `avih` (frame period, total
/// frames, size), then a `LIST movi`. OpenDML's `dmlh` total frames is used when present.
/// Following `RIFF AVIX` extensions, if any, are walked too.
enum AVIParser {
  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "AVI"
    let (form, end) = try IFFChunks.outer(r, magic: fourCC("RIFF"), bigEndian: false)
    guard form == fourCC("AVI ") else { throw .unrecognized("RIFF form is \(fourCCString(form)), not AVI") }
    let chunks = try IFFChunks.list(r, 12, end, bigEndian: false, parent: "the RIFF container")
    guard let hdrl = chunks.first, hdrl.id == fourCC("LIST"), hdrl.size >= 4, try r.u32be(hdrl.data) == fourCC("hdrl") else {
      throw .corrupt("AVI does not start with a LIST hdrl chunk")
    }
    let header = try IFFChunks.list(r, hdrl.data + 4, hdrl.end, bigEndian: false, parent: "LIST hdrl")
    guard let avih = header.first, avih.id == fourCC("avih") else { throw .corrupt("AVI LIST hdrl does not start with avih") }
    guard avih.size >= 56 else { throw .corrupt("AVI avih is \(avih.size) bytes, not 56") }
    let a = try r.bytes(avih.data, 56)
    let microseconds = Bytes.u32le(a, 0)
    var frames = Bytes.u32le(a, 16)
    let width = Bytes.u32le(a, 32)
    let height = Bytes.u32le(a, 36)
    var streams = 0
    for c in header where c.id == fourCC("LIST") && c.size >= 4 {
      let kind = try r.u32be(c.data)
      if kind == fourCC("strl") {
        streams += 1
        let inner = try IFFChunks.list(r, c.data + 4, c.end, bigEndian: false, parent: "LIST strl")
        guard let strh = inner.first, strh.id == fourCC("strh"), strh.size >= 4 else {
          throw .corrupt("AVI stream list at offset \(c.start) does not start with strh")
        }
      } else if kind == fourCC("odml") {
        for d in try IFFChunks.list(r, c.data + 4, c.end, bigEndian: false, parent: "LIST odml") where d.id == fourCC("dmlh") && d.size >= 4 {
          let total = try r.u32le(d.data)
          if total > frames { frames = total }
        }
      }
    }
    guard streams > 0 else { throw .corrupt("AVI has no stream list (strl)") }
    var hasMovi = false
    for c in chunks where c.id == fourCC("LIST") && c.size >= 4 {
      if try r.u32be(c.data) == fourCC("movi") { hasMovi = true }
    }
    guard hasMovi else { throw .corrupt("AVI has no LIST movi chunk") }
    // OpenDML extensions follow as further RIFF AVIX containers.
    var pos = end + (end % 2)
    var extensions = 0
    while r.has(12, at: pos), try r.u32be(pos) == fourCC("RIFF"), try r.u32be(pos + 8) == fourCC("AVIX") {
      extensions += 1
      guard extensions <= 1024 else { throw .corrupt("AVI has too many AVIX extensions") }
      let size = Int(try r.u32le(pos + 4))
      guard size >= 4, size <= r.count - pos - 8 else {
        throw .corrupt("AVI AVIX extension at offset \(pos) declares \(size) bytes, past the end of the file")
      }
      _ = try IFFChunks.list(r, pos + 12, pos + 8 + size, bigEndian: false, parent: "RIFF AVIX")
      pos += 8 + size + size % 2
    }
    let seconds = Double(frames) * Double(microseconds) / 1_000_000
    return MediaFacts(type: .avi, bytes: UInt64(r.count), width: width, height: height,
                      durationSeconds: seconds, frameCount: frames)
  }
}
