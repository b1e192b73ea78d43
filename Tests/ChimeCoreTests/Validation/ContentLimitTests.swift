import ChimeCore
import Testing

/// Each documented content limit holds exactly at its number: the most allowed is accepted and
/// one more is refused, with the field named.
@Suite struct ContentLimitTests {
  func rejection(_ content: NotificationContent, trigger: Trigger? = nil) -> ChimeError? {
    do {
      try RequestValidator.validate(NotificationRequest(identifier: "limit", content: content, trigger: trigger))
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: ["title", "subtitle", "body", "category_identifier", "thread_identifier", "target_content_identifier",
                    "summary_argument", "launch_image_name"])
  func aTextFieldTakesExactly4096Bytes(_ field: String) {
    func content(_ text: String) -> NotificationContent {
      var c = NotificationContent(title: field == "title" ? text : "Tea")
      switch field {
      case "subtitle": c.subtitle = text
      case "body": c.body = text
      case "category_identifier": c.categoryIdentifier = text
      case "thread_identifier": c.threadIdentifier = text
      case "target_content_identifier": c.targetContentIdentifier = text
      case "summary_argument": c.summaryArgument = text
      case "launch_image_name": c.launchImageName = text
      default: break
      }
      return c
    }
    #expect(rejection(content(String(repeating: "a", count: Limits.textMaxBytes))) == nil)
    #expect(rejection(content(String(repeating: "é", count: Limits.textMaxBytes / 2))) == nil, "4096 bytes of two-byte characters")
    let over = rejection(content(String(repeating: "a", count: Limits.textMaxBytes + 1)))
    #expect(over?.reason == "FIELD_TOO_LONG" && over?.field == "request.content.\(field)", "\(String(describing: over))")
  }

  @Test func tenAttachmentsAreAcceptedAndElevenRefused() {
    func content(_ n: Int) -> NotificationContent {
      var c = NotificationContent(title: "Tea")
      c.attachments = (0..<n).map { Attachment(identifier: "a\($0)", path: "/tmp/a\($0).png") }
      return c
    }
    #expect(Limits.attachmentsMax == 10)
    #expect(rejection(content(10)) == nil)
    let over = rejection(content(11))
    #expect(over?.reason == "TOO_MANY_ATTACHMENTS" && over?.field == "request.content.attachments", "\(String(describing: over))")
  }

  @Test func aRepeatOfExactlyTheMinimumIsAccepted() {
    let content = NotificationContent(title: "Tea")
    #expect(rejection(content, trigger: .timeInterval(.init(seconds: Limits.minimumRepeatInterval, repeats: true))) == nil)
    #expect(rejection(content, trigger: .timeInterval(.init(seconds: Limits.minimumRepeatInterval - 0.001, repeats: true)))?.reason == "INVALID_INTERVAL")
  }
}
