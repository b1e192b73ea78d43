import ChimeCore
import Foundation
import Testing

/// The real-world corpus (scripts/realworld): files from pinned Debian 12 packages and copies
/// derived from them, each held to the facts independent tools report (manifest.tsv, written by
/// make-manifest.py from ffprobe, identify, soxi and file). `make test` builds the short corpus
/// (`build.sh --short`) and `make test-realworld` the whole one before running this; the corpus
/// directory is CHIME_REALWORLD_DIR, else .build/realworld.
@Suite("Real-world media corpus")
struct RealWorldCorpusTests {
  static let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // Media, ChimeCoreTests, Tests, the package
    return url.path
  }()

  static let directory: String = {
    if let dir = ProcessInfo.processInfo.environment["CHIME_REALWORLD_DIR"], !dir.isEmpty { return dir + "/files" }
    return packageRoot + "/.build/realworld/files"
  }()

  static var built: Bool { FileManager.default.fileExists(atPath: directory + "/.short") }

  struct Entry {
    var id: String
    var package: String
    var facts: [String: String]
  }

  static func manifest() throws -> [Entry] {
    let text = try String(contentsOfFile: packageRoot + "/scripts/realworld/manifest.tsv", encoding: .utf8)
    return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      var facts: [String: String] = [:]
      for pair in columns[4].split(separator: " ") {
        let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
        facts[kv[0]] = kv.count > 1 ? kv[1] : ""
      }
      return Entry(id: columns[0], package: columns[1], facts: facts)
    }
  }

  /// Durations agree within 2% or 50 ms: ffprobe's come from timestamps or its own estimate,
  /// Chime's from the frames and the headers.
  static func closeEnough(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= max(0.05, 0.02 * b) }

  /// What disagrees with the manifest, one line each.
  static func check(_ entry: Entry, _ bytes: [UInt8]) -> [String] {
    var problems: [String] = []
    let f = entry.facts
    do throws(ChimeError) {
      let facts = try MediaInspector.inspect(MemoryByteSource(bytes))
      if let refused = f["refused"] { problems.append("accepted as \(facts.type.uti), expected \(refused)") }
      if let type = f["type"], type != facts.type.uti { problems.append("type \(facts.type.uti), expected \(type)") }
      if let size = f["size"], size != "\(facts.width)x\(facts.height)" { problems.append("size \(facts.width)x\(facts.height), expected \(size)") }
      if let pixels = f["pixels"], pixels != "\(facts.pixelWidth)x\(facts.pixelHeight)" {
        problems.append("pixels \(facts.pixelWidth)x\(facts.pixelHeight), expected \(pixels)")
      }
      if let frames = f["frames"], frames != "\(facts.frameCount)" { problems.append("frames \(facts.frameCount), expected \(frames)") }
      if let text = f["seconds"], let seconds = Double(text), !closeEnough(facts.durationSeconds, seconds) {
        problems.append("duration \(facts.durationSeconds) s, expected \(seconds)")
      }
    } catch {
      if let refused = f["refused"] {
        if refused != error.reason { problems.append("refused \(error.reason), expected \(refused): \(error.message)") }
      } else {
        problems.append("refused \(error.reason): \(error.message)")
      }
    }
    if let sound = f["sound"] ?? f["sound-refused"] {
      let r = SoundRules.resolve(MemoryByteSource(bytes))
      if f["sound"] != nil {
        let got = "\(r.codec)/\(r.channels)/\(Int(r.sampleRate))/\(r.frames)"
        if r.plays != .named || got != sound {
          problems.append("sound \(r.plays.rawValue) \(got) \(r.reason) \(r.message), expected \(sound)")
        }
      } else if r.reason != sound {
        problems.append("sound \(r.plays.rawValue) \(r.reason), expected \(sound)")
      }
    }
    return problems
  }

  @Test(.enabled(if: built, "the real-world corpus is not built: run scripts/realworld/build.sh [--short] (make test does)"))
  func everyFileHasTheFactsIndependentToolsReport() throws {
    var checked: [String: Int] = [:]
    var failures: [String] = []
    for entry in try Self.manifest() {
      guard let data = FileManager.default.contents(atPath: Self.directory + "/" + entry.id) else { continue }
      checked[entry.package, default: 0] += 1
      for problem in Self.check(entry, [UInt8](data)) {
        failures.append("\(entry.id): \(problem)")
      }
    }
    #expect(!checked.isEmpty, "no corpus file found in \(Self.directory)")
    for failure in failures { Issue.record(Comment(rawValue: failure)) }
    let total = checked.values.reduce(0, +)
    print("real-world corpus: \(total) files from \(checked.count) packages checked, \(failures.count) disagreements")
  }
}
