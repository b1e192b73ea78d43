import ChimeCore

/// The statuses decoding fails with. All are INVALID_ARGUMENT: the bytes came from a peer.
enum WireErrors {
  static func malformedPayload(_ message: String) -> ChimeError {
    ChimeError(.malformedPayload, "payload is not a valid \(message) message")
  }

  /// A payload that would take more memory to unpack than any valid message of its size.
  static func overBudget(_ message: String, bytes: Int) -> ChimeError {
    ChimeError(.malformedPayload, "payload is not a valid \(message) message: its \(bytes) bytes would take more than \(ProtoMessage.unpackBudget(bytes)) bytes to unpack (a message field repeated to make them grow)")
  }

  static func containsNUL(field: String) -> ChimeError {
    ChimeError(.fieldContainsNUL, "\(field) contains a NUL character", field: field)
  }

  static func invalidUTF8(field: String) -> ChimeError {
    ChimeError(.malformedPayload, "\(field) is not valid UTF-8", field: field)
  }

  static func unknownEnum(_ raw: UInt32, field: String) -> ChimeError {
    ChimeError(.unknownEnumValue, "\(field) has the unknown value \(Int32(bitPattern: raw))", field: field)
  }

  static func unknownValue(_ value: String, field: String) -> ChimeError {
    ChimeError(.unknownEnumValue, "\(field) has the unknown value \"\(value)\"", field: field)
  }
}
