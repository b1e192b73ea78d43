extension String {
  /// Whether the string holds a NUL byte, which a C string (a path, a protobuf-c field, an app
  /// id on the wire) cannot carry. Scans the contiguous UTF-8 storage: `utf8.contains(0)`
  /// walks the view one index at a time, about ten times the instructions, and every request
  /// checks a dozen strings.
  public var containsNUL: Bool {
    var copy = self
    return copy.withUTF8 { $0.contains(0) }
  }
}
