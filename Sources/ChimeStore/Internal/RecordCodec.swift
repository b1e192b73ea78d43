import ChimeCore
import Foundation

/// JSON for the `body` columns. One encoder and one decoder for the store's life: the writer
/// encodes (one thread at a time) and readers decode.
struct RecordCodec: Sendable {
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  func encode<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
    try decoder.decode(type, from: Data(text.utf8))
  }

  /// The `event.body` of `event`, reusing the JSON already encoded for its pending request or
  /// delivered notification (a JSONEncoder pass costs tens of microseconds; the hot paths
  /// would otherwise encode the same value twice). Decodes as `EventBody`.
  func eventBody(_ event: Event, pendingJSON: String? = nil, deliveredJSON: String? = nil) throws -> String {
    var text: [UInt8] = []
    text.reserveCapacity(64 + (pendingJSON?.utf8.count ?? 0) + (deliveredJSON?.utf8.count ?? 0))
    text += #"{"identifiers":["#.utf8
    for (i, identifier) in event.identifiers.enumerated() {
      if i > 0 { text.append(UInt8(ascii: ",")) }
      JSONText.appendQuoted(identifier, to: &text)
    }
    text.append(UInt8(ascii: "]"))
    if !event.note.isEmpty {
      text += #","note":"#.utf8
      JSONText.appendQuoted(event.note, to: &text)
    }
    if let pending = event.pending {
      text += #","pending":"#.utf8
      text += try (pendingJSON ?? encode(pending)).utf8
    }
    if let delivered = event.delivered {
      text += #","delivered":"#.utf8
      text += try (deliveredJSON ?? encode(delivered)).utf8
    }
    text.append(UInt8(ascii: "}"))
    return String(decoding: text, as: UTF8.self)
  }
}

/// What an `event` row's `body` holds; cursor, app, instant and kind are columns.
struct EventBody: Codable {
  var identifiers: [String]
  var note: String?
  var delivered: DeliveredNotification?
  var pending: PendingRequest?

  func event(cursor: UInt64, at: Instant, kind: Event.Kind) -> Event {
    Event(cursor: cursor, at: at, kind: kind, identifiers: identifiers, delivered: delivered, pending: pending, note: note ?? "")
  }
}

enum JSONText {
  /// Appends `string` as a JSON string literal (RFC 8259: quote, backslash and control
  /// characters escaped; everything else as UTF-8).
  private static let hex = Array("0123456789abcdef".utf8)

  static func appendQuoted(_ string: String, to text: inout [UInt8]) {
    text.append(UInt8(ascii: "\""))
    for b in string.utf8 {
      switch b {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        text.append(UInt8(ascii: "\\"))
        text.append(b)
      case 0..<0x20:
        text += "\\u00".utf8
        text.append(hex[Int(b >> 4)])
        text.append(hex[Int(b & 0xF)])
      default:
        text.append(b)
      }
    }
    text.append(UInt8(ascii: "\""))
  }
}
