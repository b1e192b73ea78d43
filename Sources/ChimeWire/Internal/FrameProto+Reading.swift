import ChimeCore

extension FrameProto {
  /// The two frames every call receives — a call, and a reply without a status — read field by
  /// field when they are laid out as `encode` and protobuf-c write them: each field at most
  /// once, in field order, no unknown or other fields, header strings valid UTF-8 without a NUL.
  /// nil for anything else (a cancel, a status, a repeated or reordered field, any error), which
  /// `decode` leaves to protobuf-c; so whatever this reads, protobuf-c reads as the same frame
  /// (`FrameProtoTests` compares the two on mutated frames).
  ///
  /// Unpacking through protobuf-c (a message and a submessage allocated, the payload copied
  /// into them and again out, every field walked once more for a NUL) was about 3,700
  /// instructions of each frame a ChimeClient call reads and of each call chimed reads.
  static func readCommon(_ body: UnsafeRawBufferPointer) -> Frame? {
    var frame = FieldReader(body)
    // Frame: call_id = 1 (varint), call = 2, reply = 4 (length-delimited).
    let id = frame.take(1 << 3 | 0) ? frame.varint() : 0
    guard let id else { return nil }
    if frame.take(2 << 3 | 2) {
      guard let call = frame.lengthDelimited(), frame.atEnd else { return nil }
      return readCall(id: id, call)
    }
    if frame.take(4 << 3 | 2) {
      guard let reply = frame.lengthDelimited(), frame.atEnd else { return nil }
      return readReply(id: id, reply)
    }
    return nil
  }

  private static func readCall(id: UInt64, _ body: UnsafeRawBufferPointer) -> Frame? {
    var call = FieldReader(body)
    // Call: method = 1, app_id = 2 (strings), deadline_unix_ms = 3 (varint), payload = 4.
    let method = call.take(1 << 3 | 2) ? call.lengthDelimited().flatMap(headerText) : ""
    let app = call.take(2 << 3 | 2) ? call.lengthDelimited().flatMap(headerText) : ""
    let deadline = call.take(3 << 3 | 0) ? call.varint() : 0
    let payload = call.take(4 << 3 | 2) ? call.lengthDelimited() : UnsafeRawBufferPointer(start: nil, count: 0)
    guard let method, let app, let deadline, let payload, call.atEnd else { return nil }
    let millis = Int64(bitPattern: deadline)
    return .call(id: id, CallHeader(method: method, appID: app, deadline: millis == 0 ? nil : Instant(unixMillis: millis)),
                 payload: Array(payload))
  }

  private static func readReply(id: UInt64, _ body: UnsafeRawBufferPointer) -> Frame? {
    var reply = FieldReader(body)
    // Reply: payload = 1, end_of_stream = 2 (bool, written as one byte), status = 3 (not read here).
    let payload = reply.take(1 << 3 | 2) ? reply.lengthDelimited() : UnsafeRawBufferPointer(start: nil, count: 0)
    var endOfStream = false
    if reply.take(2 << 3 | 0) {
      guard let flag = reply.byte(), flag <= 1 else { return nil }
      endOfStream = flag == 1
    }
    guard let payload, reply.atEnd else { return nil }
    return .reply(id: id, payload: Array(payload), endOfStream: endOfStream, status: nil)
  }

  /// A method or app id: nil when it holds a NUL (protobuf-c would cut it there; `decode` then
  /// refuses it) or is not UTF-8.
  private static func headerText(_ bytes: UnsafeRawBufferPointer) -> String? {
    guard !bytes.contains(0) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }
}

/// Reads protobuf fields from the front of a message's bytes; every read is bounded by them.
private struct FieldReader {
  let bytes: UnsafeRawBufferPointer
  var at = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var atEnd: Bool { at == bytes.count }

  /// Consumes the next byte when it is `key` (a field number below 16 and its wire type).
  mutating func take(_ key: UInt8) -> Bool {
    guard at < bytes.count, bytes[at] == key else { return false }
    at += 1
    return true
  }

  mutating func byte() -> UInt8? {
    guard at < bytes.count else { return nil }
    defer { at += 1 }
    return bytes[at]
  }

  /// A varint of at most ten bytes whose value fits 64 bits; nil otherwise.
  mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    for shift in stride(from: UInt64(0), to: 70, by: 7) {
      guard let b = byte() else { return nil }
      if shift == 63, b > 1 { return nil }
      value |= UInt64(b & 0x7f) << shift
      if b & 0x80 == 0 { return value }
    }
    return nil
  }

  /// A length-delimited field's bytes.
  mutating func lengthDelimited() -> UnsafeRawBufferPointer? {
    guard let length = varint(), length <= UInt64(bytes.count - at) else { return nil }
    defer { at += Int(length) }
    return UnsafeRawBufferPointer(rebasing: bytes[at..<at + Int(length)])
  }
}
