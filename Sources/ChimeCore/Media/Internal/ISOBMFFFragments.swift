/// A fragmented MPEG-4 file (`+frag_keyframe+empty_moov`, what MediaRecorder and streaming
/// tools write): `moov` holds no samples, `mvex` (with `mehd`, the whole duration, when the
/// writer knew it, and a `trex` of defaults per track) says fragments follow, and each `moof`
/// has a `traf` per track whose `trun`s list the samples.
extension ISOBMFFParser {
  enum Fragments {
    /// Reads `mvex`: each `trex`'s default sample duration into its track; returns `mehd`'s
    /// fragment duration (in the movie timescale), 0 without one.
    static func movieExtends(_ mvex: Box, _ walk: Walk, tracks: inout [Track]) throws(MediaParseError) -> UInt64 {
      let r = walk.r
      var duration: UInt64 = 0
      for box in try walk.children(mvex.payload, mvex.end, parent: "mvex") {
        switch box.type {
        case fourCC("mehd"):
          let version = try walk.fullBoxVersion(box, minimum: 4)
          guard box.payloadSize >= (version == 1 ? 12 : 8) else { throw .corrupt("MPEG-4 mehd at offset \(box.start) is too short") }
          duration = version == 1 ? try r.u64be(box.payload + 4) : UInt64(try r.u32be(box.payload + 4))
          if duration == UInt64.max || (version == 0 && duration == 0xFFFF_FFFF) { duration = 0 }
        case fourCC("trex"):
          guard box.payloadSize >= 24 else { throw .corrupt("MPEG-4 trex at offset \(box.start) is too short") }
          let id = try r.u32be(box.payload + 4)
          let defaultDuration = try r.u32be(box.payload + 12)
          for i in tracks.indices where tracks[i].id == id {
            tracks[i].defaultSampleDuration = defaultDuration
          }
        default:
          break
        }
      }
      return duration
    }

    /// Adds up each track's samples and sample durations over every `moof`. The sample count
    /// is bounded by `ParseLimits.maxElements` over the file, and each `trun`'s table must fit
    /// its box.
    static func sum(_ moofs: [Box], _ walk: Walk, tracks: inout [Track]) throws(MediaParseError) {
      let r = walk.r
      var total: UInt64 = 0
      for moof in moofs {
        for traf in try walk.children(moof.payload, moof.end, parent: "moof") where traf.type == fourCC("traf") {
          var index: Int?
          var defaultDuration: UInt32?
          for box in try walk.children(traf.payload, traf.end, parent: "traf") {
            switch box.type {
            case fourCC("tfhd"):
              guard box.payloadSize >= 8 else { throw .corrupt("MPEG-4 tfhd at offset \(box.start) is too short") }
              let flags = try r.u32be(box.payload) & 0xFF_FFFF
              let id = try r.u32be(box.payload + 4)
              index = tracks.firstIndex(where: { $0.id == id })
              guard index != nil else { throw .corrupt("MPEG-4 tfhd at offset \(box.start) names track \(id), which moov does not have") }
              var at = 8
              if flags & 0x01 != 0 { at += 8 }  // base data offset
              if flags & 0x02 != 0 { at += 4 }  // sample description index
              if flags & 0x08 != 0 {
                guard box.payloadSize >= at + 4 else { throw .corrupt("MPEG-4 tfhd at offset \(box.start) is too short for its flags") }
                defaultDuration = try r.u32be(box.payload + at)
              }
            case fourCC("trun"):
              guard let i = index else { throw .corrupt("MPEG-4 trun at offset \(box.start) comes before its traf's tfhd") }
              guard box.payloadSize >= 8 else { throw .corrupt("MPEG-4 trun at offset \(box.start) is too short") }
              let flags = try r.u32be(box.payload) & 0xFF_FFFF
              let count = Int(try r.u32be(box.payload + 4))
              total += UInt64(count)
              guard total <= UInt64(ParseLimits.maxElements) else {
                throw .corrupt("MPEG-4 fragments hold more than \(ParseLimits.maxElements) samples")
              }
              var at = 8
              if flags & 0x001 != 0 { at += 4 }  // data offset
              if flags & 0x004 != 0 { at += 4 }  // first sample flags
              let fields = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
              guard count <= (box.payloadSize - min(at, box.payloadSize)) / max(fields * 4, 1), at + count * fields * 4 <= box.payloadSize else {
                throw .corrupt("MPEG-4 trun at offset \(box.start) lists \(count) samples, more than its \(box.payloadSize) bytes hold")
              }
              tracks[i].fragmentSamples += UInt64(count)
              if flags & 0x100 != 0 {
                for n in 0..<count {
                  tracks[i].fragmentTicks += UInt64(try r.u32be(box.payload + at + n * fields * 4))
                }
              } else {
                let each = defaultDuration ?? tracks[i].defaultSampleDuration
                tracks[i].fragmentTicks += UInt64(count) * UInt64(each)
              }
            default:
              break
            }
          }
        }
      }
    }
  }
}
