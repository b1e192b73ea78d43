extension UnsafeBufferPointer<UInt8> {
  /// Whether these bytes are `text`'s UTF-8: a header's name or value against a literal, byte
  /// by byte. (`elementsEqual` with a `String.UTF8View` walks the view an index at a time:
  /// about 350 instructions a name, and a gRPC call's headers make eleven comparisons.)
  func equals(_ text: StaticString) -> Bool {
    guard count == text.utf8CodeUnitCount else { return false }
    let literal = text.utf8Start
    for i in 0..<count where self[i] != literal[i] { return false }
    return true
  }
}
