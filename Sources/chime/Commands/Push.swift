import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime push`: deliver an APNs-style JSON payload, in the spirit of `xcrun simctl push`.
struct Push: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "Deliver an APNs-style JSON payload at once, as a pushed notification.",
    discussion: """
      Reads the payload from FILE (or standard input for -): `aps.alert` (a string, or title / \
      subtitle / body), `aps.badge`, `aps.sound`, `aps.category`, `aps.thread-id`, \
      `aps.mutable-content`, `aps.interruption-level`, `aps.relevance-score`; every key outside \
      `aps` is user info. --id is the apns-collapse-id: it replaces an earlier delivered \
      notification with that identifier. A payload with "mutable-content": 1 goes to the app's \
      service extension first (`chime extension run --service`); the answer says which content \
      was delivered and why. Payloads over chimed's limit (4096 bytes by default) are refused.

      Examples:
        chime push --app org.example.news payload.json
        echo '{"aps":{"alert":"Hello"}}' | chime push --app org.example.news -
      """
  )

  @Argument(help: "The payload: a JSON file, or - for standard input.") var file: String
  @Option(help: "The notification identifier (apns-collapse-id); default: a generated one.") var id: String = ""
  @OptionGroup var options: ClientOptions

  func run() async throws {
    let data: Data
    if file == "-" {
      do {
        data = Data(try FileDescriptor(rawValue: 0).readToEnd())
      } catch {
        throw ValidationError("cannot read standard input: \(error)")
      }
    } else {
      guard let read = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
      data = read
    }
    try await reporting(json: options.json) {
      let result = try await options.connect().push(Array(data), identifier: id)
      let d = result.delivered
      if options.json {
        var object = JSONOutput.delivered(d)
        object["replaced"] = result.replaced
        JSONOutput.print(object)
        return
      }
      print("delivered \(d.request.identifier)  \"\(ContentText.headline(d.request.content))\"")
      for a in d.request.content.attachments {
        print("attachment \(a.identifier)  \(a.info?.type ?? "")  \(a.info.map { "\($0.width)x\($0.height)" } ?? "")")
      }
      if let push = d.push {
        print(Self.text(push))
        for r in push.refusedAttachments { print("refused attachment \(r.path): \(r.reason): \(r.message)") }
      }
    }
  }

  static func text(_ push: PushDelivery) -> String {
    switch push.source {
    case .original where push.reason.isEmpty: "content: original"
    case .original: "content: original (\(push.reason): \(push.message))"
    case .extension: "content: from service extension \(push.extensionIdentifier)"
    case .bestAttempt: "content: best attempt of service extension \(push.extensionIdentifier) (its time expired)"
    }
  }

  static func json(_ push: PushDelivery) -> [String: Any] {
    var object: [String: Any] = ["mutable_content": push.mutableContent, "content": push.source.rawValue]
    if !push.reason.isEmpty { object["reason"] = push.reason; object["message"] = push.message }
    if !push.extensionIdentifier.isEmpty { object["extension"] = push.extensionIdentifier }
    if !push.refusedAttachments.isEmpty {
      object["refused_attachments"] = push.refusedAttachments.map {
        ["identifier": $0.identifier, "path": $0.path, "reason": $0.reason, "message": $0.message, "field": $0.field]
      }
    }
    return object
  }
}
