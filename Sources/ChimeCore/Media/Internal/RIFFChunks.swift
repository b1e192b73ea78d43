/// Chunk walking shared by RIFF (little-endian sizes: WAV, AVI) and IFF (big-endian: AIFF).
/// Chunks are padded to an even length; the pad after the last chunk may be missing.
struct IFFChunk {
  var id: UInt32
  var start: Int
  var data: Int
  var size: Int
  /// The size the header states (differs from `size` for a stream's open-ended chunk).
  var declaredSize: Int
  var name: String { fourCCString(id) }
  var end: Int { data + size }
}

enum IFFChunks {
  /// The outer `RIFF`/`FORM` header at offset 0: form type and the end of the container.
  /// A declared size past the end of the file is corrupt; bytes after the container are
  /// tolerated.
  static func outer(_ r: ByteReader, magic: UInt32, bigEndian: Bool) throws(MediaParseError) -> (form: UInt32, end: Int) {
    guard r.has(12, at: 0), try r.u32be(0) == magic else { throw .unrecognized("no \(fourCCString(magic)) header") }
    let size = Int(bigEndian ? try r.u32be(4) : try r.u32le(4))
    let form = try r.u32be(8)
    guard size >= 4 else { throw .corrupt("\(r.format) \(fourCCString(magic)) size \(size) is too small") }
    guard size <= r.count - 8 else {
      throw .corrupt("\(r.format) \(fourCCString(magic)) header declares \(size) bytes, past the end of the file (\(r.count - 8) follow the header)")
    }
    return (form, 8 + size)
  }

  /// The chunks that tile `start..<end`. A chunk for which `openEnded(id, declared size)` is
  /// true runs to `end` whatever its declared size says (a stream's placeholder).
  static func list(_ r: ByteReader, _ start: Int, _ end: Int, bigEndian: Bool, parent: String,
                   openEnded: (UInt32, Int) -> Bool = { _, _ in false }) throws(MediaParseError) -> [IFFChunk] {
    var out: [IFFChunk] = []
    var pos = start
    while pos < end {
      guard out.count < ParseLimits.maxElements else { throw .corrupt("\(r.format) has more than \(ParseLimits.maxElements) chunks") }
      guard end - pos >= 8 else {
        throw .corrupt("\(r.format) chunk header at offset \(pos) in \(parent) is cut off after \(end - pos) bytes")
      }
      let id = try r.u32be(pos)
      let declared = Int(bigEndian ? try r.u32be(pos + 4) : try r.u32le(pos + 4))
      var size = declared
      if openEnded(id, declared) { size = end - pos - 8 }
      guard size <= end - pos - 8 else {
        throw .corrupt("\(r.format) chunk '\(fourCCString(id))' at offset \(pos) declares \(size) bytes, past the end of \(parent) (\(end - pos - 8) left)")
      }
      out.append(IFFChunk(id: id, start: pos, data: pos + 8, size: size, declaredSize: declared))
      pos += 8 + size
      if size % 2 == 1 {
        pos += 1  // pad byte; may be missing after the last chunk (then pos == end + 1)
      }
    }
    return out
  }
}
