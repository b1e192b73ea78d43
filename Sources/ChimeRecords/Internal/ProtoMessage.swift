public import CChimeProto
public import ChimeCore

/// Packing and unpacking any generated message, and reading its strings. Public with package
/// members, and the generic ones `@inlinable`: callers in ChimeWire and ChimeStore specialise
/// them for each message (see `CArena`).
public enum ProtoMessage {
  /// Builds a message in a fresh arena, packs it, and frees everything the arena holds.
  @inlinable
  package static func pack<M>(building build: (CArena) -> UnsafeMutablePointer<M>) -> [UInt8] {
    let arena = CArena()
    defer { arena.freeAll() }
    return pack(build(arena), lengthPrefix: false)
  }

  /// As `pack(building:)`, for what a client sends: a string holding a NUL would reach the
  /// daemon cut short (another identifier, another file), so it is refused instead with
  /// INVALID_ARGUMENT `FIELD_CONTAINS_NUL`, before anything is sent.
  @inlinable
  package static func packRefusingNUL(_ what: String, building build: (CArena) -> UnsafeMutablePointer<some Any>) throws(ChimeError) -> [UInt8] {
    let arena = CArena()
    defer { arena.freeAll() }
    let message = build(arena)
    guard !arena.cutAtNUL else {
      throw ChimeError(.fieldContainsNUL, "a string in the \(what) contains a NUL character, which cannot be sent")
    }
    return pack(message, lengthPrefix: false)
  }

  /// The packed bytes of `message`, optionally preceded by their length (4 bytes, big-endian).
  @inlinable
  package static func pack<M>(_ message: UnsafePointer<M>, lengthPrefix: Bool) -> [UInt8] {
    // Every generated struct starts with its ProtobufCMessage base, whose descriptor `_init` set.
    let base = UnsafeRawPointer(message).assumingMemoryBound(to: ProtobufCMessage.self)
    let size = protobuf_c_message_get_packed_size(base)
    let prefix = lengthPrefix ? 4 : 0
    if size == 0 && prefix == 0 { return [] }  // all defaults; don't rely on a buffer of capacity 0
    precondition(!lengthPrefix || size <= Int(UInt32.max), "frame of \(size) bytes does not fit a 32-bit length")
    return [UInt8](unsafeUninitializedCapacity: prefix + size) { out, count in
      let start = out.baseAddress!
      if lengthPrefix {
        start[0] = UInt8(truncatingIfNeeded: size >> 24)
        start[1] = UInt8(truncatingIfNeeded: size >> 16)
        start[2] = UInt8(truncatingIfNeeded: size >> 8)
        start[3] = UInt8(truncatingIfNeeded: size)
      }
      let written = protobuf_c_message_pack(base, start + prefix)
      precondition(written == size, "protobuf-c packed \(written) bytes, expected \(size)")
      count = prefix + written
    }
  }

  @usableFromInline package typealias Unpack<M> = (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<M>?

  /// The most memory unpacking `bytes` of payload may take: 64 KiB, plus 128 bytes per byte.
  /// The largest generated message struct is 168 bytes, and the shortest field that makes one
  /// (an empty element of a repeated message field) is 2 bytes, so a valid message stays under
  /// 92 bytes per byte; what goes past it is a payload built to make protobuf-c allocate (a
  /// singular message repeated N times merges N times, its arrays growing with N²).
  @inlinable
  package static func unpackBudget(_ bytes: Int) -> Int {
    let (perByte, tooMany) = bytes.multipliedReportingOverflow(by: 128)
    let (total, tooLarge) = perByte.addingReportingOverflow(64 << 10)
    return tooMany || tooLarge ? Int.max : total
  }

  /// Unpacks `bytes` with the message's generated `_unpack`, hands the message to `body`, and
  /// frees it afterwards. Returns nil when the bytes are not a valid message, or would take more
  /// than `unpackBudget` to unpack (`overBudget` then says so). The message is unpacked into an
  /// arena (`CArena.allocator`), freed whole once `body` returns: pointers into the message
  /// must not outlive `body`.
  @inlinable
  package static func unpacking<M, R, E: Error>(
    _ bytes: UnsafeRawBufferPointer,
    with unpack: Unpack<M>,
    overBudget: UnsafeMutablePointer<Bool>? = nil,
    _ body: (UnsafePointer<M>) throws(E) -> R
  ) throws(E) -> R? {
    let arena = CArena()
    defer { arena.freeAll() }
    arena.limit = unpackBudget(bytes.count)
    var allocator = arena.allocator
    var scratch: UInt8 = 0
    let message: UnsafeMutablePointer<M>?
    if let base = bytes.baseAddress, bytes.count > 0 {
      message = unpack(&allocator, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    } else {
      message = unpack(&allocator, 0, &scratch)
    }
    guard let message else {
      overBudget?.pointee = arena.limitReached
      return nil
    }
    return try body(message)
  }

  /// Unpacks a method payload or a record; bytes that are not a `name` message are INVALID_ARGUMENT
  /// `MALFORMED_PAYLOAD`, and a string field with a NUL inside is INVALID_ARGUMENT
  /// `FIELD_CONTAINS_NUL` naming the field.
  @inlinable
  package static func decode<M, R>(
    _ bytes: [UInt8],
    as name: String,
    with unpack: Unpack<M>,
    _ body: (UnsafePointer<M>) throws(ChimeError) -> R
  ) throws(ChimeError) -> R {
    // Array.withUnsafeBytes rethrows untyped errors, so carry the typed one out in a Result.
    var overBudget = false
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(ChimeError) in
        try unpacking(raw, with: unpack, overBudget: &overBudget) { (message) throws(ChimeError) -> R in
          // Every generated struct starts with its ProtobufCMessage base, holding the descriptor.
          let base = UnsafeRawPointer(message).assumingMemoryBound(to: ProtobufCMessage.self)
          if let field = ProtoStrings.fieldWithNUL(in: raw, descriptor: base.pointee.descriptor) {
            throw WireErrors.containsNUL(field: field)
          }
          return try body(message)
        }
      }
    }
    guard let value = try result.get() else {
      throw overBudget ? WireErrors.overBudget(name, bytes: bytes.count) : WireErrors.malformedPayload(name)
    }
    return value
  }

  /// The string a field holds; INVALID_ARGUMENT `MALFORMED_PAYLOAD` unless it is valid UTF-8.
  /// (protobuf-c does not check; a NUL inside the string cuts it there.)
  @inlinable
  package static func text(_ p: UnsafePointer<CChar>?, _ field: @autoclosure () -> String) throws(ChimeError) -> String {
    guard let p, p.pointee != 0 else { return "" }
    guard let s = String(validatingCString: p) else { throw WireErrors.invalidUTF8(field: field()) }
    return s
  }

  /// The strings of a repeated string field.
  @inlinable
  package static func texts(_ p: UnsafePointer<UnsafeMutablePointer<CChar>?>?, count: Int, _ field: @autoclosure () -> String) throws(ChimeError) -> [String] {
    guard let p, count > 0 else { return [] }
    var out: [String] = []
    out.reserveCapacity(count)
    for i in 0..<count {
      out.append(try text(p[i], "\(field())[\(i)]"))
    }
    return out
  }

  /// Copies a `bytes` field.
  @inlinable
  package static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
    guard let base = data.data, data.len > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: base, count: data.len))
  }
}
