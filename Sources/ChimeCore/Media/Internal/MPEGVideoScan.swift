/// An MPEG-1 or MPEG-2 video elementary stream read start code by start code, fed in pieces (the
/// whole file for a bare stream, the video packets' payloads for a program stream).
///
/// What it learns: the first sequence header (size, pel or display aspect, frame rate), whether
/// a sequence extension makes it MPEG-2 (with the size and frame-rate extensions), the pictures
/// and how many fields each shows (MPEG-2 field pictures, `repeat_first_field`), so
///
///   - frames = frame pictures + field pictures ÷ 2, as a decoder outputs them;
///   - duration = fields shown ÷ 2 ÷ frame rate (a 3:2 pulldown film lasts as long as it plays).
///
/// When `strict` (a bare stream, where these bytes are the whole file) it also refuses what a
/// decoder would stop at: a picture before any sequence header, a picture coding type outside
/// I/P/B/D, reserved or system start codes, a picture with no slice (the last one: the file was
/// cut), and any start code after the sequence end code but a new sequence header.
struct MPEGVideoScan {
  /// Frame rates by `frame_rate_code` (ISO/IEC 11172-2 and 13818-2, table 6-4).
  static let frameRates: [Double] = [0, 24000.0 / 1001, 24, 25, 30000.0 / 1001, 30, 50, 60000.0 / 1001, 60]
  /// MPEG-1 `pel_aspect_ratio` codes: the pixel's height ÷ width, × 10,000 (table 2-D.4.1).
  static let pelAspects: [Int] = [0, 10000, 6735, 7031, 7615, 8055, 8437, 8935, 9157, 9815, 10255, 10695, 10950, 11575, 12015]
  /// MPEG-2 `aspect_ratio_information` codes: the display's width ÷ height, as num/den
  /// (code 1 means square pixels, not a display ratio).
  static let displayAspects: [(Int, Int)] = [(0, 0), (1, 1), (4, 3), (16, 9), (221, 100)]

  let strict: Bool
  /// A problem found; the first one is kept (feeding cannot throw).
  private(set) var problem: String?

  // Start code detection, across pieces.
  private var last3: UInt32 = 0xFF_FFFF
  private var offset = 0  // bytes fed so far
  // The bytes after a start code that is being read.
  private var pendingCode: UInt8?
  private var pendingAt = 0
  private var pending: [UInt8] = []
  private var pendingWant = 0

  // The first sequence header and extension.
  private(set) var width = 0
  private(set) var height = 0
  private(set) var aspectCode = 0
  private(set) var rateCode = 0
  private(set) var isMPEG2 = false
  private var rateExtension = (n: 0, d: 0)
  private var progressiveSequence = false
  private var sawSequence = false
  private var sawSequenceExtension = false

  // Pictures.
  private var framePictures = 0
  private var fieldPictures = 0
  private var fields = 0
  private var inPicture = false
  private var pictureHasSlice = false
  private var pictureFields = 2  // fields the current picture shows, until its coding extension says
  private var ended = false  // after a sequence end code
  private(set) var startCodes = 0

  init(strict: Bool) {
    self.strict = strict
  }

  private mutating func fail(_ message: String) {
    if problem == nil { problem = message }
  }

  mutating func feed(_ bytes: [UInt8]) {
    for b in bytes {
      if pendingCode != nil {
        pending.append(b)
        if pending.count == pendingWant { finishPending() }
      }
      if last3 == 0x000001 {
        startCode(b, at: offset - 3)
      }
      last3 = (last3 << 8 | UInt32(b)) & 0xFF_FFFF
      offset += 1
    }
  }

  /// How many bytes after each start code are read.
  private static func want(_ code: UInt8) -> Int {
    switch code {
    case 0x00: 4  // temporal reference, picture coding type, vbv delay
    case 0xB3: 8  // sizes, aspect, rate, bit rate, vbv buffer size
    case 0xB5: 6  // sequence (0x1) or picture coding (0x8) extension
    default: 0
    }
  }

  private mutating func startCode(_ code: UInt8, at position: Int) {
    startCodes += 1
    if pendingCode != nil {
      // A start code inside the bytes being read: what was read is all there is.
      finishPending()
    }
    if ended && code != 0xB3 {
      // After a sequence end code only a new sequence may start.
      if strict { fail("MPEG video has start code \(hex(0x100 | UInt32(code), width: 8)) at offset \(position), after its sequence end code") }
      ended = false
    }
    switch code {
    case 0x00:
      endPicture(at: position)
      guard sawSequence || !strict else {
        fail("MPEG video has a picture at offset \(position) before any sequence header")
        return
      }
      inPicture = true
      pictureHasSlice = false
      pictureFields = 2
    case 0x01...0xAF:
      if inPicture { pictureHasSlice = true }
    case 0xB2, 0xB8:
      break  // user data, group of pictures
    case 0xB3:
      endPicture(at: position)
      ended = false
    case 0xB5:
      break
    case 0xB7:
      endPicture(at: position)
      ended = true
    default:
      if strict {
        let what = code >= 0xB9 ? "a system start code" : "a reserved start code"
        fail("MPEG video has \(what) \(hex(0x100 | UInt32(code), width: 8)) at offset \(position)")
      }
    }
    let n = Self.want(code)
    if n > 0 {
      pendingCode = code
      pendingAt = position
      pending = []
      pending.reserveCapacity(n)
      pendingWant = n
    }
  }

  private mutating func finishPending() {
    guard let code = pendingCode else { return }
    pendingCode = nil
    let p = pending
    switch code {
    case 0x00:
      guard p.count >= 2 else {
        if strict { fail("MPEG video picture header at offset \(pendingAt) is cut off") }
        return
      }
      let type = (p[1] >> 3) & 0x07
      if strict && !(1...4).contains(type) {
        fail("MPEG video picture at offset \(pendingAt) has coding type \(type), not I, P, B or D")
      }
    case 0xB3:
      guard p.count >= 8 else {
        if strict { fail("MPEG video sequence header at offset \(pendingAt) is cut off") }
        return
      }
      let w = Int(p[0]) << 4 | Int(p[1]) >> 4
      let h = Int(p[1] & 0x0F) << 8 | Int(p[2])
      let aspect = Int(p[3] >> 4)
      let rate = Int(p[3] & 0x0F)
      guard w > 0, h > 0, aspect > 0, (1..<Self.frameRates.count).contains(rate), p[6] & 0x20 != 0 else {
        fail("MPEG video sequence header at offset \(pendingAt) is invalid (\(w)×\(h), aspect code \(aspect), frame rate code \(rate))")
        return
      }
      if !sawSequence {
        sawSequence = true
        (width, height, aspectCode, rateCode) = (w, h, aspect, rate)
      }
    case 0xB5:
      guard let first = p.first else { return }
      switch first >> 4 {
      case 0x1 where !sawSequenceExtension && sawSequence && p.count >= 6:
        // profile/level 8, progressive 1, chroma 2, h ext 2, v ext 2, bit rate ext 12, marker,
        // vbv ext 8, low delay 1, frame rate ext n 2, d 5.
        sawSequenceExtension = true
        isMPEG2 = true
        progressiveSequence = p[1] & 0x08 != 0
        width |= Int((p[1] & 0x01) << 1 | p[2] >> 7) << 12
        height |= Int((p[2] >> 5) & 0x03) << 12
        rateExtension = (Int((p[5] >> 5) & 0x03), Int(p[5] & 0x1F))
      case 0x8 where inPicture && p.count >= 5:
        // f codes 16, intra dc 2, picture structure 2, top field first, ..., repeat first field.
        let structure = p[2] & 0x03
        let topFieldFirst = p[3] & 0x80 != 0
        let repeatFirst = p[3] & 0x02 != 0
        if structure != 3 {
          pictureFields = 1
        } else if progressiveSequence {
          pictureFields = repeatFirst ? (topFieldFirst ? 6 : 4) : 2
        } else {
          pictureFields = repeatFirst ? 3 : 2
        }
      default:
        break
      }
    default:
      break
    }
  }

  /// Counts the picture being read (if any) once the next start code that is not a slice,
  /// user data or extension ends it.
  private mutating func endPicture(at position: Int) {
    guard inPicture else { return }
    inPicture = false
    if !pictureHasSlice {
      if strict { fail("MPEG video picture before offset \(position) has no slice") }
      return
    }
    if pictureFields == 1 { fieldPictures += 1 } else { framePictures += 1 }
    fields += pictureFields
  }

  /// Call after the last byte: ends the last picture.
  mutating func finish() {
    if pendingCode != nil { finishPending() }
    if inPicture {
      inPicture = false
      if pictureHasSlice {
        if pictureFields == 1 { fieldPictures += 1 } else { framePictures += 1 }
        fields += pictureFields
      } else if strict {
        fail("MPEG video ends inside a picture with no slice (truncated?)")
      }
    }
  }

  /// Frames a decoder outputs: frame pictures, and field pictures in pairs.
  var frames: Int { framePictures + (fieldPictures + 1) / 2 }

  /// Frames per second, with MPEG-2's frame rate extension; 0 without a sequence header.
  var frameRate: Double {
    guard rateCode > 0, rateCode < Self.frameRates.count else { return 0 }
    return Self.frameRates[rateCode] * Double(rateExtension.n + 1) / Double(rateExtension.d + 1)
  }

  /// Seconds the pictures play for: fields shown ÷ 2 ÷ frame rate.
  var seconds: Double {
    let rate = frameRate
    return rate > 0 ? Double(fields) / 2 / rate : 0
  }

  /// The width a viewer sees (height unchanged): pixels × the sample aspect ratio the sequence
  /// header gives (MPEG-1 `pel_aspect_ratio`, MPEG-2 display aspect ÷ pixel shape), rounded.
  var displayWidth: Int {
    guard width > 0, height > 0 else { return width }
    if isMPEG2 {
      guard aspectCode >= 2, aspectCode < Self.displayAspects.count else { return width }
      let (n, d) = Self.displayAspects[aspectCode]
      return Int((Double(height) * Double(n) / Double(d)).rounded())
    }
    guard aspectCode >= 1, aspectCode < Self.pelAspects.count else { return width }
    return Int((Double(width) * 10000 / Double(Self.pelAspects[aspectCode])).rounded())
  }

  var hasSequence: Bool { sawSequence }
}
