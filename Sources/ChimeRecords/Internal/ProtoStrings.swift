public import CChimeProto
import ChimeCore

/// Finds a NUL inside a string field of a packed message, which protobuf-c cannot show: it
/// hands strings on as C strings, so `"ding.wav\0../x"` would arrive as `"ding.wav"` and be
/// judged as that. Walks the wire bytes with the generated descriptors (every string field, at
/// any depth, in repeated and nested messages) so such a payload is refused instead.
public enum ProtoStrings {
  /// Nesting deeper than this is not walked further (protobuf-c has already unpacked the
  /// message, so its depth is bounded by the frame size; this only bounds the recursion).
  static let maxDepth = 64

  /// The field path (`request.content.attachments[0].path`) of the first string field holding a
  /// NUL byte, or nil when there is none.
  @usableFromInline
  package static func fieldWithNUL(in bytes: UnsafeRawBufferPointer, descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> String? {
    guard let base = bytes.baseAddress, !bytes.isEmpty, bytes.contains(0) else { return nil }
    return scan(UnsafeRawBufferPointer(start: base, count: bytes.count), descriptor, depth: 0)
  }

  /// The path of the field holding a NUL, relative to this message (the caller puts its own in
  /// front, so nothing is spelled until one is found).
  private static func scan(_ bytes: UnsafeRawBufferPointer, _ descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
                           depth: Int) -> String? {
    guard depth < maxDepth else { return nil }
    var i = 0
    // Occurrences so far of each repeated field, for its index in the path: a message has a
    // few, a linear look is cheaper than hashing.
    var seen: [(number: UInt32, count: Int)] = []
    while i < bytes.count {
      guard let key = varint(bytes, &i) else { return nil }
      let number = UInt32(truncatingIfNeeded: key >> 3)
      switch key & 7 {
      case 0:
        guard varint(bytes, &i) != nil else { return nil }
      case 1:
        i += 8
      case 5:
        i += 4
      case 2:
        guard let length = varint(bytes, &i), length <= UInt64(bytes.count - i) else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: bytes[i..<(i + Int(length))])
        i += Int(length)
        guard let field = protobuf_c_message_descriptor_get_field(descriptor, number) else { continue }
        var index: Int?
        if field.pointee.label == PROTOBUF_C_LABEL_REPEATED {
          if let at = seen.firstIndex(where: { $0.number == number }) {
            index = seen[at].count
            seen[at].count += 1
          } else {
            index = 0
            seen.append((number, 1))
          }
        }
        // Most fields hold no NUL: a path is spelled only for the one that does, and a nested
        // message is walked only when its bytes hold one (each byte is looked at once per level).
        func name() -> String {
          let own = String(cString: field.pointee.name)
          return index.map { own + "[\($0)]" } ?? own
        }
        if field.pointee.type == PROTOBUF_C_TYPE_STRING {
          if body.contains(0) { return name() }
        } else if field.pointee.type == PROTOBUF_C_TYPE_MESSAGE, let sub = field.pointee.descriptor, body.contains(0) {
          let subDescriptor = sub.assumingMemoryBound(to: ProtobufCMessageDescriptor.self)
          if let found = scan(body, subDescriptor, depth: depth + 1) { return name() + "." + found }
        }
      default:
        return nil  // groups are not proto3; unpacking would have refused them
      }
    }
    return nil
  }

  private static func varint(_ bytes: UnsafeRawBufferPointer, _ i: inout Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while i < bytes.count, shift < 64 {
      let byte = bytes[i]
      i += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    return nil
  }
}
