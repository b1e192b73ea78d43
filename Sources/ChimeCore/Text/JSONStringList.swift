/// A list of strings stored as a JSON array (an app's group containers): written with
/// `JSONWriter`, read with `JSONDocument`.
public enum JSONStringList {
  /// `strings` as a compact JSON array; `/` escaped as `\/` by default, as rows written before
  /// have it (either form reads back the same).
  public static func text(_ strings: [String], escapingSlashes: Bool = true) -> String {
    JSONWriter.text(.array(strings.map { .string($0) }), escapingSlashes: escapingSlashes)
  }

  /// The strings of a JSON array of strings; nil when `text` is anything else.
  public static func strings(from text: String) -> [String]? {
    guard case .array(let items)? = JSONDocument.parse(Array(text.utf8)) else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(items.count)
    for item in items {
      guard case .string(let string) = item else { return nil }
      strings.append(string)
    }
    return strings
  }
}
