import ChimeCore
import Foundation
import Testing

@Suite struct JSONStringListTests {
  /// The list reads back as written, whatever its strings hold.
  @Test func aListRoundTrips() {
    let lists: [[String]] = [[], ["/home/ana/.var/app/org.example"], ["a\"b", "back\\slash", "tab\t", "nul\u{0}", "é🙂", ""]]
    for list in lists {
      #expect(JSONStringList.strings(from: JSONStringList.text(list)) == list)
      #expect(JSONStringList.strings(from: JSONStringList.text(list, escapingSlashes: false)) == list)
    }
  }

  /// Rows written by Foundation's JSONEncoder (its defaults escape `/`) read the same, and new
  /// rows are written the same way.
  @Test func rowsWrittenByJSONEncoderReadTheSame() throws {
    let list = ["/home/ana/box", "/run/user/1000/x"]
    let old = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    #expect(old.contains("\\/"))
    #expect(JSONStringList.strings(from: old) == list)
    #expect(JSONStringList.text(list) == old)
  }

  @Test func anythingButAnArrayOfStringsIsRefused() {
    for text in ["", "{}", "[1]", "[\"a\", null]", "\"a\"", "[\"a\"", "[\"a\"] x"] {
      #expect(JSONStringList.strings(from: text) == nil, "\(text)")
    }
  }
}
