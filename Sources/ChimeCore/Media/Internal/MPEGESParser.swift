/// A bare MPEG-1 or MPEG-2 video elementary stream (`.m1v`, `.m2v`, and `.mpg` files with no
/// system layer): a sequence header first, then groups of pictures. MPEG-2 when a sequence
/// extension follows the header, else MPEG-1. Every byte is read by a strict `MPEGVideoScan`.
enum MPEGESParser {
  static func parse(_ r: ByteReader) throws(MediaParseError) -> MediaFacts {
    r.format = "MPEG video"
    guard r.has(4, at: 0), try r.u32be(0) == 0x0000_01B3 else { throw .unrecognized("no MPEG video sequence header") }
    var video = MPEGVideoScan(strict: true)
    try r.forEachPiece(0, r.count) { video.feed($0) }
    video.finish()
    if let problem = video.problem { throw .corrupt(problem) }
    guard video.hasSequence else { throw .corrupt("MPEG video sequence header at offset 0 is cut off") }
    guard video.frames > 0 else { throw .corrupt("MPEG video has no picture") }
    guard video.startCodes <= ParseLimits.maxElements else {
      throw .corrupt("MPEG video has more than \(ParseLimits.maxElements) start codes")
    }
    return MPEGPSParser.facts(video, type: video.isMPEG2 ? .mpeg2Video : .mpeg, bytes: r.count)
  }
}
