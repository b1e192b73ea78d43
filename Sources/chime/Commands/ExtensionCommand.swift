import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials
import ChimeSystem

/// `chime extension run`: act as one of the app's content extensions from a terminal.
struct ExtensionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extension",
    abstract: "Act as a content extension (deliveries and responses of some categories) or, with --service, as a service extension.",
    discussion: """
      Registers as the app's content extension ID for the given categories, prints each \
      notification delivered in them and each response to one, and answers every response it \
      is asked about with --answer: keep (doNotDismiss: the notification stays, the app is not \
      told), dismiss (removed, the app is not told) or forward (removed, the app gets the \
      response; the default). A media button press (`chime media play ID`) is printed and \
      reported back as playing or paused. Runs until interrupted, or until --responses N were \
      answered, or --presses N reported.
      `run` names no identifier: the extension is --id, else APP.content. The attribute \
      options say how presenters show it (--ratio is height / width, default 1).

      With --service it registers as the app's service extension instead (APP.service unless \
      named): each mutable pushed notification (`chime push`) is printed and answered with its \
      content changed by --set-title and --attach (a copy of FILE is attached, as if the \
      extension had downloaded it), after --delay. At the deadline chimed says time will \
      expire, and the extension sends its best attempt at once: the new title, without the \
      attachments it had not finished. --requests N exits after N requests.

      Examples:
        chime extension run --service --app org.example.news --set-title "Cat" \\
          --attach cat.png
        chime extension run --app org.example.cal --category event-invite \\
          --ratio 0.5 --answer keep
        chime extension invite-ui --category event-invite --answer keep
        chime extension run --category song --media-button overlay \\
          --media-frame 10,10,44,44 --media-tint '#FF8800'
      """
  )

  @Argument(help: "`run` [ID], or just the extension identifier.") var words: [String] = []
  @Option(help: "The extension identifier (with `run`).") var id: String?
  @Option(name: .customLong("category"), help: "A category to handle; repeat for several.") var categories: [String] = []
  @Option(help: "keep, dismiss or forward.", completion: .list(["keep", "dismiss", "forward"])) var answer: String = "forward"
  @Option(help: "Exit after answering this many responses.") var responses: Int?
  @Option(help: "Exit after reporting this many media button presses.") var presses: Int?
  @Option(help: "Initial content size ratio (height / width, > 0).") var ratio: Double = 1
  @Flag(help: "The default title and body are hidden under the extension's view.") var defaultContentHidden = false
  @Flag(help: "The extension's title replaces the app name.") var overridesDefaultTitle = false
  @Flag(help: "The extension's view takes input.") var userInteraction = false
  @Option(help: "Media play/pause button: none, default or overlay.", completion: .list(["none", "default", "overlay"])) var mediaButton: String = "none"
  @Option(help: "The media button's frame: X,Y,WIDTH,HEIGHT in points.") var mediaFrame: String?
  @Option(help: "The media button's tint, #RRGGBB.") var mediaTint: String = ""
  @Flag(help: "Act as the app's service extension (mutable pushes) instead of a content extension.") var service = false
  @Option(help: "Service extension: the title of the content it answers with.") var setTitle: String?
  @Option(name: .customLong("attach"), help: "Service extension: attach a copy of this file; repeat for several.") var attachments: [String] = []
  @Option(help: "Service extension: how long it works on each request before answering (e.g. 2s).") var delay: String = "0s"
  @Option(help: "Service extension: exit after answering this many requests.") var requests: Int?
  @OptionGroup var options: ClientOptions

  func validate() throws {
    guard ["keep", "dismiss", "forward"].contains(answer) else { throw ValidationError("--answer is keep, dismiss or forward") }
    if service {
      _ = try DurationOption.parse(delay, option: "--delay", DurationInput.Bounds(noun: "delay", allowsZero: true), hint: "e.g. 2s or 500ms")
      _ = try identifier()
      return
    }
    if categories.isEmpty { throw ValidationError("give at least one --category") }
    _ = try identifier()
    _ = try attributes()
  }

  /// `run [ID]` (ID, else --id, else APP.content) or `ID`.
  func identifier() throws -> String {
    switch words.count {
    case 1 where words[0] == "run": return id ?? "\(options.appID).\(service ? "service" : "content")"
    case 2 where words[0] == "run": return words[1]
    case 1 where id == nil: return words[0]
    default: throw ValidationError("usage: chime extension run [ID] --category C ... or chime extension ID --category C ...")
    }
  }

  /// The attribute options; the daemon validates the values.
  func attributes() throws -> ExtensionAttributes {
    guard let type = MediaPlayPauseButtonType(rawValue: mediaButton) else {
      throw ValidationError("--media-button is none, default or overlay")
    }
    var frame: MediaButtonFrame?
    if let mediaFrame {
      let parts = mediaFrame.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingWhitespace()) }
      guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
        throw ValidationError("--media-frame is X,Y,WIDTH,HEIGHT")
      }
      frame = MediaButtonFrame(x: x, y: y, width: w, height: h)
    }
    return ExtensionAttributes(initialContentSizeRatio: ratio, defaultContentHidden: defaultContentHidden,
                               overridesDefaultTitle: overridesDefaultTitle, userInteractionEnabled: userInteraction,
                               mediaButton: MediaPlayPauseButton(type: type, frame: frame, tintColor: mediaTint))
  }

  func run() async throws {
    if service { return try await runService() }
    let chosen: ExtensionAnswer = answer == "keep" ? .doNotDismiss : answer == "dismiss" ? .dismiss : .dismissAndForward
    let id = try identifier()
    let attributes = try attributes()
    try await reporting(json: options.json) {
      let client = try options.connect()
      var answered = 0, pressed = 0
      for try await event in client.registerExtension(id, categories: categories, attributes: attributes) {
        if event.registered {
          print(options.json ? #"{"registered":true}"# : "registered \(id) for \(categories.joined(separator: ", "))")
        } else if let d = event.delivered {
          if options.json {
            JSONOutput.print(["delivered": JSONOutput.delivered(d)])
          } else {
            print("delivered \(d.request.identifier)  \"\(ContentText.headline(d.request.content))\"")
          }
        } else if let media = event.media {
          // Acts as a player: what was pressed is what it reports as started or paused.
          let playback: MediaPlayback = media.command == .play ? .playing : .paused
          if options.json {
            JSONOutput.print(["media": media.command.rawValue, "id": media.notificationIdentifier])
          } else {
            print("media \(media.command.rawValue) \(media.notificationIdentifier)")
          }
          try await client.reportMediaPlayback(media.notificationIdentifier, extension: id, playback)
          if !options.json { print("reported \(playback.rawValue)") }
          pressed += 1
        } else if let r = event.response {
          if options.json {
            JSONOutput.print(["response": JSONOutput.response(r), "response_id": event.responseID])
          } else {
            print("response \(r.notificationIdentifier)  \(r.actionIdentifier)\(r.userText.isEmpty ? "" : "  \"\(r.userText)\"")")
          }
          if event.responseID != 0 {
            try await client.answerResponse(event.responseID, extension: id, with: chosen)
            answered += 1
            if !options.json { print("answered \(answer)") }
          }
        }
        StandardStreams.flush()
        if let responses, answered >= responses { return }
        if let presses, pressed >= presses { return }
      }
      throw ChimeError(.connectionClosed, "the daemon ended the stream")
    }
  }
}
