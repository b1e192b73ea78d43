import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Sound inspector")
struct MediaSoundInspectorTests {
  private typealias B = MediaBytes

  struct Expected: Sendable, CustomTestStringConvertible {
    var name: String, container: SoundContainer, codec: SoundCodec, channels: UInt32, rate: Double, frames: UInt64
    var testDescription: String { name }
  }

  static let playable: [Expected] = [
    Expected(name: "sounds/wav-lpcm8.wav", container: .wav, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/wav-lpcm16.wav", container: .wav, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/wav-float32.wav", container: .wav, codec: .float, channels: 1, rate: 8000, frames: 2000),
    Expected(name: "sounds/wav-ima-adpcm.wav", container: .wav, codec: .ima4, channels: 1, rate: 8000, frames: 4082),
    Expected(name: "sounds/wav-ulaw.wav", container: .wav, codec: .ulaw, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/wav-alaw.wav", container: .wav, codec: .alaw, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/wav-extensible-lpcm24.wav", container: .wav, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/wav-extensible-4ch.wav", container: .wav, codec: .lpcm, channels: 4, rate: 8000, frames: 2000),
    Expected(name: "sounds/wav-extensible-sox.wav", container: .wav, codec: .lpcm, channels: 3, rate: 8000, frames: 2000),
    Expected(name: "sounds/aiff-lpcm16.aiff", container: .aiff, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/aifc-none.aifc", container: .aifc, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/aifc-sowt.aifc", container: .aifc, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/aifc-fl32.aifc", container: .aifc, codec: .float, channels: 1, rate: 8000, frames: 2000),
    Expected(name: "sounds/aifc-ima4.aifc", container: .aifc, codec: .ima4, channels: 1, rate: 8000, frames: 4032),
    Expected(name: "sounds/aifc-ulaw.aifc", container: .aifc, codec: .ulaw, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/aifc-alaw.aifc", container: .aifc, codec: .alaw, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/caf-lpcm16.caf", container: .caf, codec: .lpcm, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/caf-float32.caf", container: .caf, codec: .float, channels: 1, rate: 8000, frames: 2000),
    Expected(name: "sounds/caf-ima4.caf", container: .caf, codec: .ima4, channels: 1, rate: 8000, frames: 4032),
    Expected(name: "sounds/caf-ulaw.caf", container: .caf, codec: .ulaw, channels: 1, rate: 8000, frames: 4000),
    Expected(name: "sounds/caf-alaw.caf", container: .caf, codec: .alaw, channels: 1, rate: 8000, frames: 4000),
  ]

  @Test(arguments: playable)
  func everyAcceptedCodecInEachContainer(_ e: Expected) throws {
    let facts = try MediaFixtures.sound(MediaFixtures.bytes(e.name)).get()
    #expect(facts.container == e.container)
    #expect(facts.codec == e.codec)
    #expect(facts.channels == e.channels)
    #expect(facts.sampleRate == e.rate)
    #expect(facts.frames == e.frames)
    let verdict = SoundRules.verdict(facts, path: "/x/" + e.name)
    #expect(verdict.plays == .named && verdict.reason.isEmpty, "\(verdict.message)")
    #expect(verdict.path == "/x/" + e.name && verdict.container == e.container.rawValue && verdict.codec == e.codec.rawValue)
    #expect(verdict.frames == e.frames && verdict.durationSeconds == Double(e.frames) / e.rate)
  }

  @Test func extensibleFixturesReallyAreExtensible() {
    for name in ["sounds/wav-extensible-lpcm24.wav", "sounds/wav-extensible-4ch.wav", "sounds/wav-extensible-sox.wav"] {
      let b = MediaFixtures.bytes(name)
      #expect(b[20] == 0xFE && b[21] == 0xFF, "\(name) should carry WAVE_FORMAT_EXTENSIBLE")
    }
  }

  // MARK: The 30-second rule

  @Test(arguments: ["wav", "aifc"])
  func realFilesEitherSideOfThirtySeconds(_ ext: String) throws {
    let short = SoundRules.resolve(MemoryByteSource(MediaFixtures.bytes("sounds/length-29.9s-ulaw.\(ext)")))
    #expect(short.plays == .named && short.frames == 29_900 && short.sampleRate == 1000)
    let long = SoundRules.resolve(MemoryByteSource(MediaFixtures.bytes("sounds/length-30.0s-ulaw.\(ext)")))
    #expect(long.plays == .default && long.reason == "SOUND_TOO_LONG" && long.frames == 30_000)
    #expect(long.codec == "ulaw" && long.durationSeconds == 30)
  }

  @Test func thirtySecondsIsExactAtEightKilohertz() {
    // Real audio bytes, built in memory: 8 kHz mono 8-bit µ-law.
    for (frames, plays) in [(239_200, SoundResolution.Plays.named), (239_999, .named), (240_000, .default), (240_001, .default)] {
      let bytes = MediaSoundFileBuilder.wav(formatTag: 7, dataBytes: frames)
      let verdict = SoundRules.resolve(MemoryByteSource(bytes))
      #expect(verdict.plays == plays, "\(frames) frames")
      #expect(verdict.frames == UInt64(frames))
    }
  }

  @Test func isTooLongComparesExactly() {
    #expect(!SoundRules.isTooLong(frames: 1_322_999, sampleRate: 44100))
    #expect(SoundRules.isTooLong(frames: 1_323_000, sampleRate: 44100))
    // A fractional rate (AIFF's 80-bit and CAF's Double allow them).
    #expect(!SoundRules.isTooLong(frames: 661_514, sampleRate: 22050.5))
    #expect(SoundRules.isTooLong(frames: 661_515, sampleRate: 22050.5))
    #expect(!SoundRules.isTooLong(frames: UInt64.max, sampleRate: 0))
    #expect(!SoundRules.isTooLong(frames: UInt64.max, sampleRate: 1e18))  // 18.4 s
    #expect(SoundRules.isTooLong(frames: UInt64.max, sampleRate: 1e17))  // 184 s
  }

  @Test func fractionalAIFFRateIsDecoded() throws {
    let bytes = MediaSoundFileBuilder.aiff(frames: 100, rate: 22050.5, dataBytes: 100)
    let facts = try MediaFixtures.sound(bytes).get()
    #expect(facts.sampleRate == 22050.5)
  }

  @Test(arguments: [
    [0x7F, 0xFF] + [UInt8](repeating: 0, count: 8),  // infinity
    [UInt8](repeating: 0, count: 10),  // zero
    [0xC0, 0x0B, 0xFA] + [UInt8](repeating: 0, count: 7),  // negative
    [0x40, 0x7E, 0x80] + [UInt8](repeating: 0, count: 7),  // 2^127: far beyond any rate
  ])
  func badAIFFRatesAreCorrupt(_ rate: [UInt8]) throws {
    let bytes = MediaSoundFileBuilder.aiff(frames: 10, rateBytes: rate, dataBytes: 10)
    let error = try #require(MediaFixtures.soundError(bytes))
    #expect(error.reason == "SOUND_CORRUPT")
  }

  // MARK: Unsupported

  @Test(arguments: [
    ("sounds/unsupported-mp3-in-wav.wav", "mp3"),
    ("sounds/unsupported-msadpcm.wav", "msadpcm"),
    ("sounds/unsupported-alac-in-caf.caf", "alac"),
  ])
  func unsupportedCodecFixtures(_ name: String, _ codec: String) {
    let verdict = SoundRules.resolve(MemoryByteSource(MediaFixtures.bytes(name)))
    #expect(verdict.plays == .default)
    #expect(verdict.reason == "SOUND_UNSUPPORTED_FORMAT")
    #expect(verdict.codec == codec)
  }

  @Test func aacInCAFIsUnsupported() {
    let bytes = MediaSoundFileBuilder.caf(format: "aac ", bytesPerPacket: 0, framesPerPacket: 1024, bits: 0, dataBytes: 64,
                                     pakt: (packets: 1, valid: 1024))
    let verdict = SoundRules.resolve(MemoryByteSource(bytes))
    #expect(verdict.reason == "SOUND_UNSUPPORTED_FORMAT" && verdict.codec == "aac")
    #expect(verdict.message == "CAF with aac audio is not playable: a sound must be linear PCM, IMA4, µ-law or a-law")
  }

  @Test func extensibleCarriesEveryPlayableSubformat() {
    let float = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 0, bits: 32, dataBytes: 800, extensibleSubformat: 3)))
    #expect(float.plays == .named && float.codec == "float" && float.frames == 200, "\(float)")
    let alaw = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 0, bits: 8, dataBytes: 800, extensibleSubformat: 6)))
    #expect(alaw.plays == .named && alaw.codec == "alaw" && alaw.frames == 800, "\(alaw)")
    let ulaw = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 0, bits: 8, dataBytes: 800, extensibleSubformat: 7)))
    #expect(ulaw.plays == .named && ulaw.codec == "ulaw" && ulaw.frames == 800, "\(ulaw)")
    // IMA ADPCM: 256-byte mono blocks of 505 frames each.
    let ima = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 0, bits: 4, blockAlign: 256, dataBytes: 512, extensibleSubformat: 0x11)))
    #expect(ima.plays == .named && ima.codec == "ima4" && ima.frames == 1010, "\(ima)")
  }

  /// Linear PCM plays up to 32 bits per sample, the widest integer PCM there is; a header
  /// claiming more is refused as a format, not taken as playable.
  @Test func linearPCMPlaysUpToThirtyTwoBitsAndNoFurther() {
    for bits: UInt16 in [24, 32] {
      let verdict = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 1, bits: bits, dataBytes: 800)))
      #expect(verdict.plays == .named && verdict.codec == "lpcm", "\(bits) bits: \(verdict)")
      #expect(verdict.frames == UInt64(800 / (Int(bits) / 8)), "\(bits) bits: \(verdict)")
    }
    let extensible = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 0, bits: 32, dataBytes: 800, extensibleSubformat: 1)))
    #expect(extensible.plays == .named && extensible.codec == "lpcm" && extensible.frames == 200, "\(extensible)")
    let wider = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 1, bits: 33, blockAlign: 5, dataBytes: 800)))
    #expect(wider.plays == .default && wider.reason == "SOUND_UNSUPPORTED_FORMAT", "\(wider)")
    #expect(wider.message.contains("linear PCM of 33 bits is not playable"), "\(wider)")
  }

  @Test func audioWithNoFramesIsCorrupt() {
    let empty = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: 1, bits: 16, dataBytes: 0)))
    #expect(empty.plays == .default && empty.reason == "SOUND_CORRUPT" && empty.message.contains("no audio"), "\(empty)")
    let aiff = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.aiff(frames: 0, dataBytes: 0)))
    #expect(aiff.plays == .default && aiff.reason == "SOUND_CORRUPT", "\(aiff)")
  }

  @Test func g711InWAVMustBeEightBits() {
    for tag: UInt16 in [6, 7] {
      let wide = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.wav(formatTag: tag, bits: 16, dataBytes: 800)))
      #expect(wide.plays == .default && wide.reason == "SOUND_UNSUPPORTED_FORMAT" && wide.message.contains("8 bits"), "\(wide)")
    }
    // AIFF-C names the decoded sample size (16) for µ-law: still playable.
    let aifc = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.aiff(aifc: true, compression: "ulaw", frames: 400, bits: 16, dataBytes: 400)))
    #expect(aifc.plays == .named && aifc.codec == "ulaw", "\(aifc)")
    // The 8-bit rule is WAV's alone: a CAF that names the decoded size for either G.711 law plays.
    for law in ["ulaw", "alaw"] {
      let caf = SoundRules.resolve(MemoryByteSource(MediaSoundFileBuilder.caf(format: law, bytesPerPacket: 1, framesPerPacket: 1, bits: 16, dataBytes: 400)))
      #expect(caf.plays == .named && caf.codec == law, "\(caf)")
    }
  }

  @Test func extensibleWithForeignSubformatIsUnsupported() {
    let guid: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x72]
    let bytes = MediaSoundFileBuilder.wav(formatTag: 0, bits: 16, dataBytes: 200, extensibleSubformat: 1, subformatGUIDTail: guid)
    #expect(SoundRules.resolve(MemoryByteSource(bytes)).reason == "SOUND_UNSUPPORTED_FORMAT")
    let mp3Sub = MediaSoundFileBuilder.wav(formatTag: 0, bits: 16, dataBytes: 200, extensibleSubformat: 0x55)
    #expect(SoundRules.resolve(MemoryByteSource(mp3Sub)).codec == "mp3")
    let ulawSub = MediaSoundFileBuilder.wav(formatTag: 0, bits: 8, dataBytes: 200, extensibleSubformat: 7)
    #expect(SoundRules.resolve(MemoryByteSource(ulawSub)).plays == .named)
  }

  @Test func unsupportedAIFCCompression() {
    let bytes = MediaSoundFileBuilder.aiff(aifc: true, compression: "QDM2", frames: 10, bits: 16, dataBytes: 10)
    let verdict = SoundRules.resolve(MemoryByteSource(bytes))
    #expect(verdict.reason == "SOUND_UNSUPPORTED_FORMAT" && verdict.codec == "qdm2")
  }

  @Test func halfFloatWAVIsUnsupported() {
    let bytes = MediaSoundFileBuilder.wav(formatTag: 3, bits: 16, dataBytes: 200)
    #expect(SoundRules.resolve(MemoryByteSource(bytes)).reason == "SOUND_UNSUPPORTED_FORMAT")
  }

  @Test(arguments: ["audio/mp3-id3.mp3", "images/png-rgb.png", "audio/m4a-audio.m4a"])
  func otherFilesAreUnsupported(_ name: String) throws {
    let error = try #require(MediaFixtures.soundError(MediaFixtures.bytes(name)))
    #expect(error.reason == "SOUND_UNSUPPORTED_FORMAT")
    #expect(SoundRules.resolve(MemoryByteSource(MediaFixtures.bytes(name))).reason == "SOUND_UNSUPPORTED_FORMAT")
  }

  // MARK: Corrupt

  @Test func emptyFileIsCorrupt() {
    #expect(MediaFixtures.soundError([])?.reason == "SOUND_CORRUPT")
  }

  @Test(arguments: playable.map(\.name))
  func truncatedHeadersAndDataAreCorrupt(_ name: String) throws {
    let good = MediaFixtures.bytes(name)
    for cut in [12, 20, 30, 44, 60, good.count / 2, good.count - 1] where cut < good.count {
      let error = try #require(MediaFixtures.soundError(Array(good.prefix(cut))), "\(name) cut to \(cut)")
      #expect(error.reason == "SOUND_CORRUPT", "\(name) cut to \(cut): \(error)")
      let verdict = SoundRules.resolve(MemoryByteSource(Array(good.prefix(cut))))
      #expect(verdict.plays == .default && verdict.reason == "SOUND_CORRUPT")
    }
  }

  static let brokenCases: [(String, [UInt8])] = [
    ("CAF desc not first", MediaSoundFileBuilder.caf(format: "lpcm", bytesPerPacket: 2, framesPerPacket: 1, bits: 16, dataBytes: 8, descFirst: false)),
    ("CAF data past end", MediaSoundFileBuilder.caf(format: "lpcm", bytesPerPacket: 2, framesPerPacket: 1, bits: 16, dataBytes: 8, dataSize: 100)),
    ("CAF pakt beyond data", MediaSoundFileBuilder.caf(format: "ima4", bytesPerPacket: 34, framesPerPacket: 64, bits: 0, dataBytes: 68, pakt: (2, 129))),
    ("CAF lpcm zero packet", MediaSoundFileBuilder.caf(format: "lpcm", bytesPerPacket: 0, framesPerPacket: 1, bits: 16, dataBytes: 8)),
    ("CAF ima4 wrong packet", MediaSoundFileBuilder.caf(format: "ima4", bytesPerPacket: 33, framesPerPacket: 64, bits: 0, dataBytes: 66)),
    ("CAF zero rate", MediaSoundFileBuilder.caf(format: "lpcm", bytesPerPacket: 2, framesPerPacket: 1, bits: 16, rate: 0, dataBytes: 8)),
    ("CAF NaN rate", MediaSoundFileBuilder.caf(format: "lpcm", bytesPerPacket: 2, framesPerPacket: 1, bits: 16, rate: .nan, dataBytes: 8)),
    ("AIFF frames beyond SSND", MediaSoundFileBuilder.aiff(frames: 101, dataBytes: 100)),
    ("AIFC ima4 packets beyond SSND", MediaSoundFileBuilder.aiff(aifc: true, compression: "ima4", frames: 3, bits: 16, dataBytes: 67)),
    ("AIFF zero channels", MediaSoundFileBuilder.aiff(channels: 0, frames: 1, dataBytes: 2)),
    ("WAV zero channels", MediaSoundFileBuilder.wav(formatTag: 1, channels: 0, dataBytes: 2)),
    ("WAV block align too small", MediaSoundFileBuilder.wav(formatTag: 1, channels: 2, bits: 16, blockAlign: 2, dataBytes: 8)),
    ("WAV IMA fact beyond data", MediaSoundFileBuilder.wav(formatTag: 0x11, bits: 4, blockAlign: 256, dataBytes: 256, fact: 506)),
    ("WAV data past end", MediaSoundFileBuilder.wav(formatTag: 1, dataBytes: 10, dataSizeDelta: 2)),
  ]

  @Test(arguments: brokenCases)
  func brokenHeadersAreCorrupt(_ what: String, _ bytes: [UInt8]) throws {
    let error = try #require(MediaFixtures.soundError(bytes), "\(what) should be refused")
    #expect(error.reason == "SOUND_CORRUPT", "\(what): \(error)")
  }

  @Test func imaWAVFramesComeFromFactWhenItFits() throws {
    // 256-byte mono blocks hold 505 frames each.
    let bytes = MediaSoundFileBuilder.wav(formatTag: 0x11, bits: 4, blockAlign: 256, dataBytes: 512, fact: 1000)
    #expect(try MediaFixtures.sound(bytes).get().frames == 1000)
    let noFact = MediaSoundFileBuilder.wav(formatTag: 0x11, bits: 4, blockAlign: 256, dataBytes: 512)
    #expect(try MediaFixtures.sound(noFact).get().frames == 1010)
  }

  @Test func cafPaktGivesIMA4Length() throws {
    let bytes = MediaSoundFileBuilder.caf(format: "ima4", bytesPerPacket: 34, framesPerPacket: 64, bits: 0, dataBytes: 68, pakt: (2, 100))
    let facts = try MediaFixtures.sound(bytes).get()
    #expect(facts.codec == .ima4 && facts.frames == 100)
  }

  @Test func cafDataToEndOfFile() throws {
    let bytes = MediaSoundFileBuilder.caf(format: "ulaw", bytesPerPacket: 1, framesPerPacket: 1, bits: 8, dataBytes: 50, dataSize: -1)
    #expect(try MediaFixtures.sound(bytes).get().frames == 50)
  }

  @Test func failureVerdictKeepsTheReason() {
    let verdict = SoundRules.verdict(failure: ChimeError(.invalidArgument, reason: "SOUND_CORRUPT", "x"), path: "/p")
    #expect(verdict.plays == .default && verdict.reason == "SOUND_CORRUPT" && verdict.path == "/p" && verdict.message == "x")
    let io = SoundRules.verdict(failure: ChimeError(.internal, reason: "MEDIA_READ_FAILED", "gone"))
    #expect(io.reason == "SOUND_CORRUPT")
  }
}
