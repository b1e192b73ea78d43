import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Media inspector: types, hints, sizes, truncation")
struct MediaInspectorTests {
  private typealias B = MediaBytes

  static let allValid: [String] = MediaImageTests.valid.map(\.name) + MediaAudioTests.valid.map(\.name)
    + MediaMovieTests.valid.map(\.name)

  @Test func emptyFileIsInvalidSize() throws {
    let error = try #require(MediaFixtures.inspectionError([]))
    #expect(error.reason == "ATTACHMENT_INVALID_FILE_SIZE")
    #expect(error.code == .invalidArgument)
    #expect(error.message == "the file is empty (0 bytes)")
  }

  static let unsupportedCases: [(String, [UInt8])] = [
    ("text", B.ascii("hello, world\n")),
    ("one byte", [0x89]),
    ("CAF", MediaFixtures.bytes("sounds/caf-lpcm16.caf")),
    ("WebP", B.ascii("RIFF") + B.le32(4) + B.ascii("WEBP")),
    ("BMP", B.ascii("BM") + [UInt8](repeating: 0, count: 60)),
    ("zeros", [UInt8](repeating: 0, count: 64)),
  ]

  @Test(arguments: unsupportedCases)
  func unsupportedBytesAreUnrecognized(_ what: String, _ bytes: [UInt8]) throws {
    let error = try #require(MediaFixtures.inspectionError(bytes))
    #expect(error.reason == "ATTACHMENT_UNRECOGNIZED_TYPE", "\(what): \(error)")
  }

  @Test func unsupportedMessageNamesWhatWasFound() throws {
    let caf = try #require(MediaFixtures.inspectionError(MediaFixtures.bytes("sounds/caf-lpcm16.caf")))
    #expect(caf.message == "the file is CAF audio (com.apple.coreaudio-format), not a supported attachment type")
    let text = try #require(MediaFixtures.inspectionError(B.ascii("hello")))
    #expect(text.message == "the file's bytes are not any supported attachment type (it begins 68 65 6C 6C 6F)")
  }

  @Test func aHintContradictingTheBytesNamesBoth() throws {
    // Names never count (the inspector sees bytes only; ChimeSystemTests opens a PNG named
    // .mp4): the bytes say PNG, and a hint that says MPEG-4 contradicts them.
    let png = MediaFixtures.bytes("images/png-rgb.png")
    #expect(try MediaFixtures.inspect(png).get().type == .png)
    let error = try #require(MediaFixtures.inspectionError(png, typeHint: "public.mpeg-4"))
    #expect(error.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
    #expect(error.message == "type hint public.mpeg-4 contradicts the file's bytes, which are public.png")
  }

  @Test func unknownHintIsUnrecognized() throws {
    let error = try #require(MediaFixtures.inspectionError(MediaFixtures.bytes("images/png-rgb.png"), typeHint: "public.heic"))
    #expect(error.reason == "ATTACHMENT_UNRECOGNIZED_TYPE")
    #expect(error.message == "type hint public.heic is not a supported attachment type")
  }

  @Test func hintOnUnrecognizedBytesSaysBoth() throws {
    let error = try #require(MediaFixtures.inspectionError(B.ascii("plain text, honestly"), typeHint: "public.jpeg"))
    #expect(error.message.hasPrefix("type hint public.jpeg contradicts the file's bytes: the file's bytes are not any supported"))
  }

  @Test(arguments: [
    ("images/png-rgb.png", "public.png"), ("images/jpeg-baseline.jpg", "public.jpeg"),
    ("images/gif-static.gif", "com.compuserve.gif"), ("audio/mp3-id3.mp3", "public.mp3"),
    ("audio/wav-pcm16.wav", "com.microsoft.waveform-audio"), ("sounds/aifc-sowt.aifc", "public.aifc-audio"),
    ("audio/aiff-pcm16.aiff", "public.aiff-audio"), ("movies/avi-mjpeg.avi", "public.avi"),
    ("movies/mpeg1-system.mpg", "public.mpeg"), ("movies/mp4-video.mp4", "com.apple.m4v-video"),
  ])
  func matchingHintsAreAccepted(_ name: String, _ hint: String) throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes(name), typeHint: hint).get()
    #expect(MediaType(uti: hint) == facts.type)
  }

  @Test func errorsCarryTheFieldPath() throws {
    let field = "request.content.attachments[2]"
    guard case .failure(let error) = MediaFixtures.inspect([], field: field) else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.field == field)
    guard case .failure(let corrupt) = MediaFixtures.inspect(Array(MediaFixtures.bytes("images/png-rgb.png").dropLast()), field: field) else {
      Issue.record("expected a failure")
      return
    }
    #expect(corrupt.field == field && corrupt.reason == "ATTACHMENT_CORRUPT")
  }

  // MARK: Size limits (decimal megabytes)

  @Test func limitsAreDecimalMegabytes() {
    #expect(MediaClass.audio.byteLimit == 5_000_000)
    #expect(MediaClass.image.byteLimit == 10_000_000)
    #expect(MediaClass.movie.byteLimit == 50_000_000)
    for type in MediaType.allCases {
      #expect(type.mediaClass.byteLimit <= MediaClass.maxByteLimit)
    }
  }

  /// `base` padded with trailing bytes (tolerated after the format's end) to `total` bytes.
  private static func padded(_ base: [UInt8], to total: Int) -> [UInt8] {
    base + [UInt8](repeating: 0, count: total - base.count)
  }

  @Test func imageAtTheLimitIsAcceptedAndOneByteOverIsNot() throws {
    let png = MediaFixtures.bytes("images/png-rgb.png")
    #expect(try MediaFixtures.inspect(Self.padded(png, to: 10_000_000)).get().bytes == 10_000_000)
    let error = try #require(MediaFixtures.inspectionError(Self.padded(png, to: 10_000_001)))
    #expect(error.reason == "ATTACHMENT_INVALID_FILE_SIZE")
    #expect(error.message == "the file is 10000001 bytes; the image limit (public.png) is 10000000 bytes")
  }

  @Test func audioAtTheLimitIsAcceptedAndOneByteOverIsNot() throws {
    let wav = MediaFixtures.bytes("audio/wav-pcm16.wav")
    #expect(try MediaFixtures.inspect(Self.padded(wav, to: 5_000_000)).get().type == .wav)
    #expect(MediaFixtures.inspectionError(Self.padded(wav, to: 5_000_001))?.reason == "ATTACHMENT_INVALID_FILE_SIZE")
  }

  /// The fixture with a `free` box appended so the file is `total` bytes.
  private static func isoPadded(_ name: String, to total: Int) -> [UInt8] {
    let base = MediaFixtures.bytes(name)
    let size = total - base.count
    return base + B.be32(UInt32(size)) + B.ascii("free") + [UInt8](repeating: 0, count: size - 8)
  }

  @Test func mpeg4AudioClassDependsOnTracksAndHint() throws {
    let over = Self.isoPadded("audio/m4a-audio.m4a", to: 5_000_001)
    let error = try #require(MediaFixtures.inspectionError(over))
    #expect(error.message == "the file is 5000001 bytes; the audio limit (public.mpeg-4-audio) is 5000000 bytes")
    // The one ambiguous case: hinted as a movie, the movie limit applies.
    #expect(try MediaFixtures.inspect(over, typeHint: "public.mpeg-4").get().mediaClass == .movie)
  }

  @Test func movieAtTheLimitIsAcceptedAndOneByteOverIsNot() throws {
    let atLimit = Self.isoPadded("movies/mp4-video.mp4", to: 50_000_000)
    #expect(try MediaFixtures.inspect(atLimit).get().bytes == 50_000_000)
    let over = Self.isoPadded("movies/mp4-video.mp4", to: 50_000_001)
    let error = try #require(MediaFixtures.inspectionError(over))
    #expect(error.reason == "ATTACHMENT_INVALID_FILE_SIZE")
  }

  // MARK: Facts

  @Test func factsConvertToAttachmentInfo() throws {
    let facts = try MediaFixtures.inspect(MediaFixtures.bytes("images/gif-animated.gif")).get()
    let info = AttachmentInfo(facts, storePath: "/store/a.gif")
    #expect(info.storePath == "/store/a.gif")
    #expect(info.type == "com.compuserve.gif" && info.mediaClass == "image")
    #expect(info.bytes == facts.bytes && info.width == 20 && info.height == 10)
    #expect(info.frameCount == 3 && info.durationSeconds == facts.durationSeconds)
  }

  // MARK: Broken variants of every valid fixture

  @Test(arguments: allValid)
  func everyTruncationIsRefused(_ name: String) throws {
    let good = MediaFixtures.bytes(name)
    // MP3 has no end marker: a cut at a frame boundary is a shorter valid file, so only cuts
    // inside frames are checked (mp3TruncatedMidFrameIsCorrupt). MPEG-PS: see
    // mpegCutAtAPackBoundaryIsNotDetectable.
    if name.hasSuffix(".mp3") || name.hasSuffix(".mpg") {
      var cuts = [good.count - 1, good.count - 3]
      for i in 1..<8 { cuts.append(good.count * i / 8 + 1) }
      for cut in cuts {
        #expect(MediaFixtures.inspectionError(Array(good.prefix(cut))) != nil, "\(name) cut to \(cut)")
      }
      return
    }
    var cuts = Set([1, 2, 4, 8, 12, 16, 24, 40, good.count - 1, good.count - 2, good.count / 2, good.count / 3])
    for i in 1..<16 { cuts.insert(good.count * i / 16 + 1) }
    for cut in cuts.sorted() where cut > 0 && cut < good.count {
      let error = MediaFixtures.inspectionError(Array(good.prefix(cut)))
      #expect(error != nil, "\(name) cut to \(cut) bytes was accepted")
      if let error, cut >= 16 {
        #expect(error.reason == "ATTACHMENT_CORRUPT", "\(name) cut to \(cut): \(error)")
      }
    }
  }

  /// Where each container's identifying bytes are: (offset, length).
  static func magic(of name: String) -> [(Int, Int)] {
    switch String(name.split(separator: ".").last ?? "") {
    case "png": [(0, 8)]
    case "jpg": [(0, 2)]
    case "gif": [(0, 6)]
    case "wav", "avi": [(0, 4), (8, 4)]
    case "aiff", "aifc": [(0, 4), (8, 4)]
    case "mp4", "m4a": [(4, 4)]
    case "mpg": [(0, 4)]
    case "mp3": [(0, 3)]
    default: []
    }
  }

  @Test(arguments: allValid)
  func wrongMagicIsUnrecognized(_ name: String) throws {
    let good = MediaFixtures.bytes(name)
    let places = Self.magic(of: name)
    #expect(!places.isEmpty, "no magic known for \(name)")
    for (offset, length) in places {
      let bad = B.patch(good, at: offset, [UInt8](repeating: 0x5A, count: length))
      let error = MediaFixtures.inspectionError(bad)
      #expect(error?.reason == "ATTACHMENT_UNRECOGNIZED_TYPE", "\(name) with bytes \(offset)..<\(offset + length) overwritten: \(String(describing: error))")
    }
  }

  @Test(arguments: allValid)
  func mutatedBytesNeverTrap(_ name: String) {
    // A cheap, deterministic stand-in for the fuzzers: flipped bytes, overwritten lengths.
    let good = MediaFixtures.bytes(name)
    var rng = SplitMix64(seed: UInt64(good.count))
    for _ in 0..<150 {
      var bytes = good
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
        case 1: bytes[at] = 0xFF
        default:
          if at + 4 <= bytes.count { bytes.replaceSubrange(at..<(at + 4), with: B.be32(UInt32.random(in: 0...UInt32.max, using: &rng))) }
        }
      }
      _ = MediaFixtures.inspect(bytes)
      _ = SoundRules.resolve(MemoryByteSource(bytes))
    }
  }
}
