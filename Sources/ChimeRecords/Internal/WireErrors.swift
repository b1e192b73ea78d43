public import ChimeCore

/// The statuses decoding protobuf fails with (protobuf's wire format: a call's payload or a stored
/// row). All are INVALID_ARGUMENT, as the bytes are untrusted; the store reports a row it cannot
/// read as damage of its own.
public enum WireErrors {
  @usableFromInline
  package static func malformedPayload(_ message: String) -> ChimeError {
    ChimeError(.malformedPayload, "payload is not a valid \(message) message")
  }

  /// A payload that would take more memory to unpack than any valid message of its size.
  @usableFromInline
  package static func overBudget(_ message: String, bytes: Int) -> ChimeError {
    ChimeError(.malformedPayload, "payload is not a valid \(message) message: its \(bytes) bytes would take more than \(ProtoMessage.unpackBudget(bytes)) bytes to unpack (a message field repeated to make them grow)")
  }

  @usableFromInline
  package static func containsNUL(field: String) -> ChimeError {
    ChimeError(.fieldContainsNUL, "\(field) contains a NUL character", field: field)
  }

  @usableFromInline
  package static func invalidUTF8(field: String) -> ChimeError {
    ChimeError(.malformedPayload, "\(field) is not valid UTF-8", field: field)
  }

  @usableFromInline
  package static func unknownEnum(_ raw: UInt32, field: String) -> ChimeError {
    ChimeError(.unknownEnumValue, "\(field) has the unknown value \(Int32(bitPattern: raw))", field: field)
  }

  @usableFromInline
  package static func unknownValue(_ value: String, field: String) -> ChimeError {
    ChimeError(.unknownEnumValue, "\(field) has the unknown value \"\(value)\"", field: field)
  }
}
