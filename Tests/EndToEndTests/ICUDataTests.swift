import ChimeTestSupport
import Foundation
import Testing

/// Release chime and chimed link ICU's data from Sources/ChimeICUData (the items Chime loads)
/// instead of the toolchain's whole package. That works only while the package is the
/// toolchain's own ICU version, named by its data symbol: this says when to regenerate it.
@Suite struct ICUDataTests {
  static let data = InstallTests.repository + "/Sources/ChimeICUData/data"

  /// The toolchain's static ICU archive, when there is one (Linux toolchains).
  static var archive: String? {
    guard let swift = try? ChildProcess.run("/bin/sh", ["-c", "readlink -f \"$(command -v swift)\""]).output
      .trimmingCharacters(in: .whitespacesAndNewlines), !swift.isEmpty else { return nil }
    let path = URL(fileURLWithPath: swift).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("lib/swift_static/linux/lib_FoundationICU.a").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  @Test(.enabled(if: archive != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"),
                 "needs the toolchain's lib_FoundationICU.a and nm"))
  func theICUDataSubsetIsForTheToolchainsICU() throws {
    let symbols = try ChildProcess.run("/usr/bin/nm", ["-A", try #require(Self.archive)])
    let line = symbols.output.split(separator: "\n").first { $0.hasSuffix("_dat") && $0.contains(" icudt") }
    let toolchain = try #require(line.flatMap { $0.split(separator: " ").last }.map(String.init), "\(symbols.errors)")
    let header = try String(contentsOfFile: Self.data + "/icudata-symbol.h", encoding: .utf8)
    #expect(header.contains("#define CHIME_ICU_DATA_SYMBOL \(toolchain)\n"),
            "the toolchain's ICU data is \(toolchain): run scripts/gen-icu-data.sh")
  }

  /// The package holds every item items.txt names, under the package's own prefix, and
  /// nothing else (the table of contents ICU searches).
  @Test func theICUDataSubsetHoldsTheListedItems() throws {
    let package = try Data(contentsOf: URL(fileURLWithPath: Self.data + "/icudata-subset.dat"))
    let bytes = [UInt8](package)
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    let headerSize = u16(0)
    #expect(bytes[12..<16].elementsEqual("CmnD".utf8), "an ICU common-data package")
    let count = u32(headerSize)
    var names: [String] = []
    for index in 0..<count {
      let start = headerSize + u32(headerSize + 4 + 8 * index)
      let end = bytes[start...].firstIndex(of: 0) ?? start
      names.append(String(decoding: bytes[start..<end], as: UTF8.self))
    }
    let listed = try String(contentsOfFile: Self.data + "/items.txt", encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    let prefix = names.first.map { String($0.prefix { $0 != "/" }) } ?? ""
    #expect(prefix.hasPrefix("icudt"))
    #expect(Set(names) == Set(listed.map { prefix + "/" + $0 }), "\(names)")
    #expect(names == names.sorted(), "ICU looks items up by binary search")
    #expect(listed.contains("zoneinfo64.res") && listed.contains("timezoneTypes.res"))
  }
}
