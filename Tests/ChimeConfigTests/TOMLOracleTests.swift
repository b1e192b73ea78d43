import ChimeConfig
import Foundation
import Testing

/// Chime's TOML reader against Python's tomllib (scripts/toml/tomllib_oracle.py): random
/// documents, valid and mutated, each accepted or refused by both, with the same values.
/// `make test` runs TOML_ORACLE_CASES=400; `make check-toml` many more.
@Suite struct TOMLOracleTests {
  static let script: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // this file, ChimeConfigTests, Tests
    return url.appendingPathComponent("scripts/toml/tomllib_oracle.py").path
  }()

  /// The oracle's canonical form of a value (see the script's doc string).
  static func canonical(_ value: TOMLValue) -> String {
    func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
      bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
    func date(_ date: TOMLDate) -> String { date.description }
    func time(_ time: TOMLTime) -> String {
      let micro = String(time.nanosecond / 1000)
      let base = TOMLTime(hour: time.hour, minute: time.minute, second: time.second, nanosecond: 0).description
      return base + "." + String(repeating: "0", count: 6 - micro.count) + micro
    }
    switch value {
    case .string(let text): return "s" + hex(text.utf8)
    case .integer(let int): return "i\(int)"
    case .float(let double):
      if double.isNaN { return "fnan" }
      let bits = String(double.bitPattern, radix: 16)
      return "f" + String(repeating: "0", count: 16 - bits.count) + bits
    case .boolean(let bool): return bool ? "b1" : "b0"
    case .offsetDateTime(let d, let t, let offset):
      return "odt\(date(d))T\(time(t))\(offset < 0 ? "" : "+")\(offset)"
    case .localDateTime(let d, let t): return "ldt\(date(d))T\(time(t))"
    case .localDate(let d): return "ld\(date(d))"
    case .localTime(let t): return "lt\(time(t))"
    case .array(let items): return "[" + items.map(canonical).joined(separator: ",") + "]"
    case .table(let table):
      let items = table.keys.map { (hex($0.utf8), canonical(table[$0]!)) }.sorted { $0.0 < $1.0 }
      return "{" + items.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
    }
  }

  static func bytes(hex: Substring) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    return bytes
  }

  @Test func agreesWithPythonsTomllib() throws {
    let environment = ProcessInfo.processInfo.environment
    let cases = environment["TOML_ORACLE_CASES"] ?? "400"
    let seed = environment["TOML_ORACLE_SEED"] ?? "1"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.script, "--cases", cases, "--seed", seed]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "tomllib_oracle.py failed (python3 3.11+ with tomllib?)")
    var compared = 0, refused = 0, skipped = 0, mismatches: [String] = []
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
      let document = String(decoding: Self.bytes(hex: fields[0]), as: UTF8.self)
      let expected = String(fields[1])
      if expected == "SKIP" {
        skipped += 1
        continue
      }
      let got: String
      do {
        got = Self.canonical(.table(try TOMLParser.parse(document)))
      } catch {
        got = "ERR \(error)"
      }
      compared += 1
      if expected == "ERR" { refused += 1 }
      let agree = expected == "ERR" ? got.hasPrefix("ERR") : got == expected
      if !agree {
        mismatches.append("document \(document.debugDescription)\n  tomllib: \(expected)\n  chime:   \(got)")
      }
    }
    print("TOML oracle: \(compared) documents compared (\(refused) refused by tomllib, \(skipped) skipped: year 0000), \(mismatches.count) mismatches, seed \(seed)")
    #expect(compared + skipped == Int(cases))
    #expect(skipped * 100 < compared, "most cases compared")
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches; the first:\n\(mismatches.prefix(8).joined(separator: "\n"))")
  }
}
