import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The document a presenter command reads stays what `JSONEncoder` wrote (sorted keys, slashes
/// unescaped, `userInfo` spliced in last), byte for byte, over random payloads.
@Suite struct CommandPayloadJSONTests {
  /// The payload's JSON as it was written with FoundationEssentials.
  static func foundation(_ payload: CommandPayload, userInfo: String) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var text = String(decoding: try encoder.encode(payload), as: UTF8.self)
    let info = userInfo.trimmingCharacters(in: .whitespacesAndNewlines)
    text.removeLast()
    text += ",\"userInfo\":" + (info.isEmpty ? "{}" : info) + "}"
    return text + "\n"
  }

  static let texts: [String] = JSONWriterTests.awkward + ["Tea", "/home/u/Music/a b.wav", "org.example.tea", "Ready in 5 min ☕"]

  @Test func randomPayloadsAreWrittenAsJSONEncoderWroteThem() throws {
    var generator = SplitMix64(seed: 27)
    func text() -> String {
      (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.texts.randomElement(using: &generator)! }.joined()
    }
    let infos = ["", "{}", #"{"cup": 2}"#, " \n{\"a\":[1,2,{\"b\":null}]}\t\n", "\u{2028}{\"x\":\"/\"}\u{A0}", #"{"k":"\u2028"}"#]
    for round in 0..<400 {
      var content = NotificationContent(title: text(), subtitle: text(), body: text())
      content.userInfoJSON = infos[round % infos.count]
      let delivered = DeliveredNotification(request: NotificationRequest(identifier: "tea", content: content),
                                            delivered: Instant(unixMillis: 5_000), due: Instant(unixMillis: 5_000),
                                            category: round % 2 == 0 ? DesktopNotificationPlanTests.category : nil)
      let sounds: [SoundChoice] = [.themeDefault(volume: nil), .silent, .file(path: "/s/\(text()).wav", volume: nil)]
      var payload = CommandPayload(delivered, app: .init(id: "org.example.tea", displayName: text()),
                                   sound: sounds[round % sounds.count])
      payload.identifier = text()
      payload.categoryIdentifier = text()
      payload.threadIdentifier = text()
      payload.interruptionLevel = text()
      payload.urgency = UInt8.random(in: 0...255, using: &generator)
      payload.deliveredMillis = [Int64.min, -1, 0, 1_795_509_000_123, Int64.max][round % 5]
      payload.missed = Bool.random(using: &generator)
      payload.attachments = (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() }
      payload.actions += (0..<Int.random(in: 0...2, using: &generator)).map { _ in .init(identifier: text(), title: text()) }
      #expect(payload.json() == (try Self.foundation(payload, userInfo: content.userInfoJSON)), "round \(round)")
    }
  }
}
