import ChimeTestSupport
import Dispatch
import Foundation
import Glibc
import Testing

/// `chime attachment check` and `chime sound inspect`: the built `chime` binary run on the media
/// fixtures and on broken copies of them, with no daemon.
@Suite(.testTimeLimit) struct PreflightCLITests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The `--json` object.
    func object() throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "not a JSON object: \(stdout) \(stderr)")
    }

    /// The human key/value block, keys to values.
    var block: [String: String] {
      var pairs: [String: String] = [:]
      for line in stdout.split(separator: "\n") {
        guard let space = line.firstIndex(of: " ") else { continue }
        pairs[String(line[..<space])] = line[space...].trimmingCharacters(in: .whitespaces)
      }
      return pairs
    }
  }

  static let fixtures: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }  // EndToEndTests, Tests
    return url.appendingPathComponent("Fixtures/media").path
  }()

  static func fixture(_ name: String) -> String { fixtures + "/" + name }

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try #require(FileManager.default.contents(atPath: fixture(name)), "missing fixture \(name)"))
  }

  /// These commands never wait on anything; one that hangs (say, on a FIFO) is killed after 30 s.
  func chime(_ arguments: [String], in directory: String? = nil) throws -> Run {
    let run = try ChimeCLI.run(arguments, directory: directory, timeout: 30)
    return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
  }

  func check(_ path: String, _ options: [String] = []) throws -> (Run, [String: Any]) {
    let run = try chime(["attachment", "check", path, "--json"] + options)
    return (run, try run.object())
  }

  func inspectSound(_ path: String) throws -> (Run, [String: Any]) {
    let run = try chime(["sound", "inspect", path, "--json"])
    return (run, try run.object())
  }

  func write(_ dir: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) -> String {
    let path = dir.file(name)
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  static func number(_ value: Any?) -> Double? {
    switch value {
    case let n as Int: Double(n)
    case let n as Double: n
    case let n as NSNumber: n.doubleValue
    default: nil
    }
  }

  // MARK: attachment check: accepted files

  struct Valid: Sendable, CustomTestStringConvertible {
    var name: String, type: String, mediaClass: String
    var width: Int?, height: Int?, seconds: Double?, frames: Int?
    var testDescription: String { name }
  }

  static let valid: [Valid] = [
    Valid(name: "images/png-rgb.png", type: "public.png", mediaClass: "image", width: 32, height: 24, seconds: nil, frames: 1),
    Valid(name: "images/gif-animated.gif", type: "com.compuserve.gif", mediaClass: "image", width: 20, height: 10, seconds: 0.6, frames: 3),
    Valid(name: "movies/mp4-video.mp4", type: "public.mpeg-4", mediaClass: "movie", width: 32, height: 24, seconds: 1, frames: 10),
    Valid(name: "audio/wav-pcm16.wav", type: "com.microsoft.waveform-audio", mediaClass: "audio", width: nil, height: nil, seconds: 1, frames: nil),
  ]

  @Test(arguments: valid)
  func validFileIsAcceptedWithItsFacts(_ e: Valid) throws {
    let (run, o) = try check(Self.fixture(e.name))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(o["ok"] as? Bool == true)
    #expect(o["type"] as? String == e.type)
    #expect(o["class"] as? String == e.mediaClass)
    #expect(Self.number(o["bytes"]) == Double(try Self.bytes(e.name).count))
    #expect(Self.number(o["width"]) == e.width.map(Double.init))
    #expect(Self.number(o["height"]) == e.height.map(Double.init))
    #expect(Self.number(o["frame_count"]) == e.frames.map(Double.init))
    if let seconds = e.seconds {
      let got = try #require(Self.number(o["duration_seconds"]))
      #expect(abs(got - seconds) < 1e-9)
    } else {
      #expect(o["duration_seconds"] == nil)
    }
    #expect(o["reason"] == nil && o["message"] == nil && o["field"] == nil)
  }

  @Test func humanOutputIsAnAlignedBlock() throws {
    let run = try chime(["attachment", "check", Self.fixture("images/png-rgb.png")])
    #expect(run.status == 0)
    #expect(run.block == ["ok": "yes", "type": "public.png", "class": "image", "bytes": "157", "width": "32", "height": "24", "frames": "1"])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("ok      yes") == true, "\(run.stdout)")
    // Every value starts in the same column.
    let columns = Set(lines.map { line -> Int in
      let key = line.prefix(while: { $0 != " " })
      return key.count + line.dropFirst(key.count).prefix(while: { $0 == " " }).count
    })
    #expect(columns.count == 1, "\(run.stdout)")

    let refused = try chime(["attachment", "check", Self.fixture("images/png-rgb.png"), "--thumbnail-time", "1"])
    #expect(refused.status == 1)
    #expect(refused.block["ok"] == "no")
    #expect(refused.block["reason"] == "INVALID_THUMBNAIL_TIME")
    #expect(refused.block["field"] == "options.thumbnail_time")
  }

  @Test func relativePathIsTakenFromTheCurrentDirectory() throws {
    let dir = TemporaryDirectory()
    _ = write(dir, "picture.mp4", try Self.bytes("images/png-rgb.png"))
    let run = try chime(["attachment", "check", "picture.mp4", "--json"], in: dir.path)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    // The name says MPEG-4; the bytes decide.
    #expect(try run.object()["type"] as? String == "public.png")
  }

  // MARK: attachment check: refused files

  @Test func truncatedPNGIsCorrupt() throws {
    let dir = TemporaryDirectory()
    let png = try Self.bytes("images/png-rgb.png")
    let path = write(dir, "cut.png", Array(png.prefix(png.count / 2)))
    let (run, o) = try check(path)
    #expect(run.status == 1)
    #expect(o["ok"] as? Bool == false)
    #expect(o["reason"] as? String == "ATTACHMENT_CORRUPT")
    #expect((o["message"] as? String)?.isEmpty == false)
    #expect(Self.number(o["bytes"]) == Double(png.count / 2))
    #expect(o["type"] == nil)
  }

  @Test func emptyFileHasAnInvalidSize() throws {
    let dir = TemporaryDirectory()
    let (run, o) = try check(write(dir, "empty.png", []))
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "ATTACHMENT_INVALID_FILE_SIZE")
    #expect(o["message"] as? String == "the file is empty (0 bytes)")
    #expect(Self.number(o["bytes"]) == 0)
  }

  @Test func imageOneByteOverItsLimitHasAnInvalidSize() throws {
    let dir = TemporaryDirectory()
    let png = try Self.bytes("images/png-rgb.png")
    let path = write(dir, "big.png", png + [UInt8](repeating: 0, count: 10_000_001 - png.count))
    let (run, o) = try check(path)
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "ATTACHMENT_INVALID_FILE_SIZE")
    #expect(o["message"] as? String == "the file is 10000001 bytes; the image limit (public.png) is 10000000 bytes")
  }

  @Test func symlinkIsNotFollowed() throws {
    let dir = TemporaryDirectory()
    let target = write(dir, "real.png", try Self.bytes("images/png-rgb.png"))
    try FileManager.default.createSymbolicLink(atPath: dir.file("link.png"), withDestinationPath: target)
    #expect(try check(target).0.status == 0)
    let (run, o) = try check(dir.file("link.png"))
    #expect(run.status == 1)
    #expect(o["ok"] as? Bool == false)
    #expect(o["reason"] as? String == "ATTACHMENT_INVALID_URL")
    #expect((o["message"] as? String)?.contains("symbolic link") == true, "\(o)")
    #expect(o["type"] == nil && o["bytes"] == nil)
  }

  @Test func missingFileIsAnInvalidURL() throws {
    let dir = TemporaryDirectory()
    let (run, o) = try check(dir.file("nothing-here.png"))
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "ATTACHMENT_INVALID_URL")
    #expect(o["message"] as? String == "\(dir.file("nothing-here.png")) does not exist")
  }

  @Test func directoryAndFIFOAreNotRegularFiles() throws {
    let dir = TemporaryDirectory()
    #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
    for (path, kind) in [(dir.path, "a directory"), (dir.file("fifo"), "a FIFO")] {
      // A FIFO with no writer must not hang the check (O_NONBLOCK).
      let (run, o) = try check(path)
      #expect(run.status == 1)
      #expect(o["reason"] as? String == "ATTACHMENT_INVALID_URL")
      #expect(o["message"] as? String == "\(path) is not a regular file (it is \(kind))")
    }
  }

  @Test(.enabled(if: geteuid() != 0, "root reads any file"))
  func unreadableFileIsAnInvalidURL() throws {
    let dir = TemporaryDirectory()
    let path = write(dir, "secret.png", try Self.bytes("images/png-rgb.png"))
    #expect(chmod(path, 0) == 0)
    let (run, o) = try check(path)
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "ATTACHMENT_INVALID_URL")
    #expect((o["message"] as? String)?.contains("permission denied") == true)
  }

  // MARK: attachment check: type hints and options

  @Test func typeHintContradictingTheBytesIsUnrecognized() throws {
    let (run, o) = try check(Self.fixture("images/png-rgb.png"), ["--type-hint", "public.mpeg-4"])
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "ATTACHMENT_UNRECOGNIZED_TYPE")
    #expect(o["message"] as? String == "type hint public.mpeg-4 contradicts the file's bytes, which are public.png")
    let unknown = try check(Self.fixture("images/png-rgb.png"), ["--type-hint", "public.heic"]).1
    #expect(unknown["reason"] as? String == "ATTACHMENT_UNRECOGNIZED_TYPE")
  }

  @Test func typeHintDecidesTheAmbiguousMPEG4Case() throws {
    let plain = try check(Self.fixture("audio/m4a-audio.m4a")).1
    #expect(plain["type"] as? String == "public.mpeg-4-audio" && plain["class"] as? String == "audio")
    let (run, hinted) = try check(Self.fixture("audio/m4a-audio.m4a"), ["--type-hint", "public.mpeg-4"])
    #expect(run.status == 0)
    #expect(hinted["type"] as? String == "public.mpeg-4" && hinted["class"] as? String == "movie")
  }

  @Test func thumbnailTimeOnAStillImageIsRefusedWithItsField() throws {
    let (run, o) = try check(Self.fixture("images/png-rgb.png"), ["--thumbnail-time", "0"])
    #expect(run.status == 1)
    #expect(o["ok"] as? Bool == false)
    #expect(o["reason"] as? String == "INVALID_THUMBNAIL_TIME")
    #expect(o["field"] as? String == "options.thumbnail_time")
    // The file itself was fine: its facts are still reported.
    #expect(o["type"] as? String == "public.png" && Self.number(o["width"]) == 32)
  }

  @Test func thumbnailTimeMustFitTheMovieOrGIF() throws {
    #expect(try check(Self.fixture("movies/mp4-video.mp4"), ["--thumbnail-time", "0.5", "--thumbnail-hidden"]).0.status == 0)
    let late = try check(Self.fixture("movies/mp4-video.mp4"), ["--thumbnail-time", "1.5"])
    #expect(late.0.status == 1 && late.1["reason"] as? String == "INVALID_THUMBNAIL_TIME")
    #expect(try check(Self.fixture("images/gif-animated.gif"), ["--thumbnail-time", "2"]).0.status == 0)
    let frame = try check(Self.fixture("images/gif-animated.gif"), ["--thumbnail-time", "3"])
    #expect(frame.0.status == 1 && frame.1["field"] as? String == "options.thumbnail_time")
  }

  @Test func clipRectIsCheckedAgainstTheUnitSquare() throws {
    #expect(try check(Self.fixture("images/png-rgb.png"), ["--clip", "0.25,0.25,0.5,0.75"]).0.status == 0)
    let (run, o) = try check(Self.fixture("images/png-rgb.png"), ["--clip", "0.5,0.5,0.6,0.1"])
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "INVALID_THUMBNAIL_CLIPPING_RECT")
    #expect(o["field"] as? String == "options.thumbnail_clipping_rect")
  }

  @Test func malformedClipIsACommandLineError() throws {
    let run = try chime(["attachment", "check", Self.fixture("images/png-rgb.png"), "--clip", "1,2"])
    #expect(run.status == 64)  // ArgumentParser's validation failure (EX_USAGE)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("--clip"))
  }

  // MARK: sound inspect

  @Test func playableWAVPlaysNamed() throws {
    let (run, o) = try inspectSound(Self.fixture("sounds/wav-lpcm16.wav"))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(o["plays"] as? String == "named")
    #expect(o["container"] as? String == "wav" && o["codec"] as? String == "lpcm")
    #expect(Self.number(o["channels"]) == 1 && Self.number(o["sample_rate"]) == 8000)
    #expect(Self.number(o["bits_per_sample"]) == 16 && Self.number(o["frames"]) == 4000)
    #expect(Self.number(o["duration_seconds"]) == 0.5)
    #expect(o["reason"] == nil && o["message"] == nil)
    #expect(o["path"] as? String == Self.fixture("sounds/wav-lpcm16.wav"))

    let human = try chime(["sound", "inspect", Self.fixture("sounds/wav-lpcm16.wav")])
    #expect(human.block["plays"] == "named" && human.block["codec"] == "lpcm" && human.block["duration"] == "0.5 s")
  }

  @Test(arguments: ["wav", "aifc"])
  func thirtySecondsIsTooLong(_ ext: String) throws {
    let (short, s) = try inspectSound(Self.fixture("sounds/length-29.9s-ulaw.\(ext)"))
    #expect(short.status == 0 && s["plays"] as? String == "named" && Self.number(s["frames"]) == 29_900)
    let (run, o) = try inspectSound(Self.fixture("sounds/length-30.0s-ulaw.\(ext)"))
    #expect(run.status == 1)
    #expect(o["plays"] as? String == "default")
    #expect(o["reason"] as? String == "SOUND_TOO_LONG")
    #expect(Self.number(o["frames"]) == 30_000 && Self.number(o["duration_seconds"]) == 30)
  }

  @Test(arguments: [
    ("sounds/unsupported-msadpcm.wav", "msadpcm"), ("sounds/unsupported-mp3-in-wav.wav", "mp3"),
    ("sounds/unsupported-alac-in-caf.caf", "alac"),
  ])
  func unsupportedCodecPlaysDefault(_ name: String, _ codec: String) throws {
    let (run, o) = try inspectSound(Self.fixture(name))
    #expect(run.status == 1)
    #expect(o["plays"] as? String == "default")
    #expect(o["reason"] as? String == "SOUND_UNSUPPORTED_FORMAT")
    #expect(o["codec"] as? String == codec)
    #expect((o["message"] as? String)?.contains("not playable") == true)
  }

  @Test func notASoundContainerIsUnsupported() throws {
    let (run, o) = try inspectSound(Self.fixture("images/png-rgb.png"))
    #expect(run.status == 1)
    #expect(o["reason"] as? String == "SOUND_UNSUPPORTED_FORMAT")
    #expect(o["codec"] == nil)
  }

  @Test func truncatedSoundIsCorrupt() throws {
    let dir = TemporaryDirectory()
    let wav = try Self.bytes("sounds/wav-lpcm16.wav")
    let (run, o) = try inspectSound(write(dir, "cut.wav", Array(wav.prefix(30))))
    #expect(run.status == 1)
    #expect(o["plays"] as? String == "default" && o["reason"] as? String == "SOUND_CORRUPT")
  }

  @Test func missingOrSymlinkedSoundIsNotFound() throws {
    let dir = TemporaryDirectory()
    let (run, o) = try inspectSound(dir.file("ding.wav"))
    #expect(run.status == 1)
    #expect(o["plays"] as? String == "default")
    #expect(o["reason"] as? String == "SOUND_NOT_FOUND")
    #expect(o["message"] as? String == "\(dir.file("ding.wav")) does not exist")

    try FileManager.default.createSymbolicLink(atPath: dir.file("link.wav"), withDestinationPath: Self.fixture("sounds/wav-lpcm16.wav"))
    let (link, l) = try inspectSound(dir.file("link.wav"))
    #expect(link.status == 1 && l["reason"] as? String == "SOUND_NOT_FOUND")
    #expect((l["message"] as? String)?.contains("symbolic link") == true)
  }

  @Test func directoryIsNotAPlayableSound() throws {
    let dir = TemporaryDirectory()
    let (run, o) = try inspectSound(dir.path)
    #expect(run.status == 1)
    // No sound there at all: not SOUND_CORRUPT, which says a sound file is broken.
    #expect(o["reason"] as? String == "SOUND_NOT_FOUND")
    #expect(o["message"] as? String == "\(dir.path) is a directory, not a sound file; give a file in it")
  }
}
