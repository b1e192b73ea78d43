import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation

/// `chime extension run`: act as one of the app's content extensions from a terminal.
struct ExtensionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extension",
    abstract: "Act as a content extension: see deliveries of some categories and answer their responses.",
    discussion: """
      Registers as the app's content extension ID for the given categories, prints each \
      notification delivered in them and each response to one, and answers every response it \
      is asked about with --answer: keep (doNotDismiss: the notification stays, the app is not \
      told), dismiss (removed, the app is not told) or forward (removed, the app gets the \
      response; the default). Runs until interrupted, or until --responses N were answered.

      Examples:
        chime extension invite-ui --category event-invite --answer keep
      """
  )

  @Argument(help: "The extension identifier.") var id: String
  @Option(name: .customLong("category"), help: "A category to handle; repeat for several.") var categories: [String] = []
  @Option(help: "keep, dismiss or forward.") var answer: String = "forward"
  @Option(help: "Exit after answering this many responses.") var responses: Int?
  @OptionGroup var options: ClientOptions

  func validate() throws {
    guard ["keep", "dismiss", "forward"].contains(answer) else { throw ValidationError("--answer is keep, dismiss or forward") }
    if categories.isEmpty { throw ValidationError("give at least one --category") }
  }

  func run() async throws {
    let chosen: ExtensionAnswer = answer == "keep" ? .doNotDismiss : answer == "dismiss" ? .dismiss : .dismissAndForward
    try await reporting {
      let client = try options.connect()
      var answered = 0
      for try await event in client.registerExtension(id, categories: categories) {
        if event.registered {
          print(options.json ? #"{"registered":true}"# : "registered \(id) for \(categories.joined(separator: ", "))")
        } else if let d = event.delivered {
          if options.json {
            JSONOutput.print(["delivered": JSONOutput.delivered(d)], pretty: false)
          } else {
            print("delivered \(d.request.identifier)  \"\(d.request.content.title)\"")
          }
        } else if let r = event.response {
          if options.json {
            JSONOutput.print(["response": JSONOutput.response(r), "response_id": event.responseID], pretty: false)
          } else {
            print("response \(r.notificationIdentifier)  \(r.actionIdentifier)\(r.userText.isEmpty ? "" : "  \"\(r.userText)\"")")
          }
          if event.responseID != 0 {
            try await client.answerResponse(event.responseID, extension: id, with: chosen)
            answered += 1
            if !options.json { print("answered \(answer)") }
          }
        }
        fflush(nil)
        if let responses, answered >= responses { return }
      }
      throw ChimeError(.connectionClosed, "the daemon ended the stream")
    }
  }
}
