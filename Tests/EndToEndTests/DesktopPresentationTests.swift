import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The freedesktop presenter against a real notification server: a private session bus with
/// dunst under Xvfb, all started by the test. What dunst was sent is read from dbus-monitor's
/// record and from `dunstctl`.
@Suite(.testTimeLimit, .serialized) struct DesktopPresentationTests {
  static let app = "org.example.tea"

  static let brew = NotificationCategory(identifier: "brew", actions: [
    NotificationAction(identifier: "again", title: "Again"),
    NotificationAction(identifier: "later", title: "Later"),
  ], options: [.customDismissAction])

  struct Running {
    let desktop: DesktopSession
    let dir: TemporaryDirectory
    let daemon: DaemonProcess
    let client: ChimeClient
  }

  func start(_ arguments: [String] = ["--presenter", "freedesktop", "--sound-player", "none"]) throws -> Running {
    let desktop = try DesktopSession()
    try desktop.startMonitor()
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: arguments, environment: desktop.environment)
    try daemon.start()
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    return Running(desktop: desktop, dir: dir, daemon: daemon, client: client)
  }

  func content(_ title: String, category: String = "brew") -> NotificationContent {
    var content = NotificationContent(title: title, subtitle: "Kitchen", body: "Ready & <hot>")
    content.categoryIdentifier = category
    return content
  }

  @Test func shownWithSummaryBodyActionsHintsAndImage() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    let layout = try await run.client.registerApp(displayName: "Tea Timer", desktopEntry: "org.example.tea")
    #expect(layout.displayName == "Tea Timer" && layout.desktopEntry == "org.example.tea")
    try await run.client.setCategories([Self.brew])
    let png = run.dir.file("work/cup.png")
    MediaCorpus.copy("images/png-rgb.png", to: png)
    var tea = content("Tea")
    tea.attachments = [ChimeCore.Attachment(identifier: "cup", path: png)]
    let added = try await run.client.add(NotificationRequest(identifier: "tea", content: tea))
    let stored = try #require(added.delivered?.request.content.attachments.first?.info?.storePath)
    // The server is shown the thumbnail rendered into the store (300×169 box), not the file.
    let thumbnail = stored + ".thumb-300x169.png"

    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 }, "\(run.daemon.log)")
    let sent = run.desktop.monitorLog
    for expected in ["member=GetCapabilities", "member=Notify", #"string "Tea Timer""#, #"string "Tea""#,
                     #"string "desktop-entry""#, #"string "org.example.tea""#,
                     "string \"<b>Kitchen</b>\nReady &amp; &lt;hot&gt;\"",
                     #"string "default""#, #"string "Open""#, #"string "again""#, #"string "Again""#, #"string "later""#,
                     #"string "urgency""#, "byte 1", #"string "category""#, #"string "brew""#,
                     #"string "image-path""#, "string \"\(thumbnail)\"", #"string "suppress-sound""#, "boolean true"] {
      #expect(sent.contains(expected), "\(expected) not sent:\n\(sent)")
    }
    let rendered = try Data(contentsOf: URL(fileURLWithPath: thumbnail))
    #expect(rendered.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    let width = rendered[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = rendered[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width <= 300 && height <= 169 && (width == 300 || height == 169), "\(width)×\(height) fits the box")
    // A passive one is low urgency.
    var quiet = content("Quiet", category: "")
    quiet.interruptionLevel = .passive
    _ = try await run.client.add(NotificationRequest(identifier: "quiet", content: quiet))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 2 })
    #expect(run.desktop.monitorLog.contains("byte 0"))

    #expect(try run.desktop.dunstctl(["close-all"]).status == 0)
    try #require(pollUntil(within: 10) { ((try? run.desktop.history()) ?? []).count == 2 })
    let history = try run.desktop.history()
    let shown = try #require(history.first { $0["summary"] as? String == "Tea" })
    #expect(shown["appname"] as? String == "Tea Timer")
    #expect(shown["category"] as? String == "brew")
    #expect(shown["icon_path"] as? String == thumbnail)
    // Dismissed, answered and removed: the attachment and its thumbnail go together.
    try #require(pollUntil(within: 10) { !FileManager.default.fileExists(atPath: thumbnail) })
    #expect(!FileManager.default.fileExists(atPath: stored))
    // Closed with the dismiss reason: the category asks for custom dismiss, so it is answered.
    let delivered = try await run.client.allDelivered().map(\.request.identifier)
    #expect(!delivered.contains("tea"), "dismissed on the desktop, answered as chime.dismiss")
  }

  @Test func actionsOnTheDesktopReachASubscriberAsResponses() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    try await run.client.setCategories([Self.brew])
    var events = run.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    // The default action, clicked in dunst.
    _ = try await run.client.add(NotificationRequest(identifier: "one", content: content("One")))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 })
    #expect(try run.desktop.dunstctl(["action", "0"]).status == 0)
    let opened = try await nextEvent(&events) { $0.kind == .response }
    #expect(opened.response?.notificationIdentifier == "one")
    #expect(opened.response?.actionIdentifier == NotificationAction.defaultIdentifier)
    // Answered: it leaves the screen and the delivered list.
    #expect(pollUntil(within: 10) { run.desktop.displayedCount == 0 })

    // A named action, as the server's ActionInvoked signal.
    _ = try await run.client.add(NotificationRequest(identifier: "two", content: content("Two")))
    try #require(pollUntil(within: 10) { run.desktop.notifyReplies.count == 2 })
    let id = run.desktop.notifyReplies[1]
    #expect(try run.desktop.sendSignal("ActionInvoked", ["uint32:\(id)", "string:again"]).status == 0)
    let again = try await nextEvent(&events) { $0.kind == .response }
    #expect(again.response?.notificationIdentifier == "two")
    #expect(again.response?.actionIdentifier == "again")

    // Closed by the user: the dismiss action (the category asks for it).
    _ = try await run.client.add(NotificationRequest(identifier: "three", content: content("Three")))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 })
    #expect(try run.desktop.dunstctl(["close"]).status == 0)
    let dismissed = try await nextEvent(&events) { $0.kind == .response }
    #expect(dismissed.response?.notificationIdentifier == "three")
    #expect(dismissed.response?.actionIdentifier == NotificationAction.dismissIdentifier)
  }

  /// A click goes the way `chime respond` goes: the category's content extension is asked
  /// first, and the app's subscriber hears of it only once the extension forwards it.
  @Test func aContentExtensionInterceptsADesktopActionFirst() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    try await run.client.setCategories([Self.brew])
    let ext = try ChimeClient.connect(socketPath: run.daemon.socketPath, app: Self.app)
    var stream = ext.registerExtension("ui", categories: ["brew"], attributes: ExtensionAttributes(initialContentSizeRatio: 1))
      .makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    var events = run.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    _ = try await run.client.add(NotificationRequest(identifier: "one", content: content("One")))
    #expect(try await nextMessage(&stream).delivered?.request.identifier == "one")
    try #require(pollUntil(within: 10) { run.desktop.notifyReplies.count == 1 })
    #expect(try run.desktop.sendSignal("ActionInvoked", ["uint32:\(run.desktop.notifyReplies[0])", "string:later"]).status == 0)
    let asked = try await nextMessage(&stream)
    #expect(asked.response?.notificationIdentifier == "one" && asked.response?.actionIdentifier == "later")
    try await ext.answerResponse(asked.responseID, extension: "ui", with: .dismissAndForward)
    let forwarded = try await nextEvent(&events) { $0.kind == .response }
    #expect(forwarded.response?.notificationIdentifier == "one" && forwarded.response?.actionIdentifier == "later")
  }

  @Test func removingADeliveredNotificationClosesItAndAgainReplacesIt() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    _ = try await run.client.add(NotificationRequest(identifier: "tea", content: content("Tea", category: "")))
    try #require(pollUntil(within: 10) { run.desktop.notifyReplies.count == 1 })
    // Delivered again under the same identifier: the one on screen is replaced.
    _ = try await run.client.add(NotificationRequest(identifier: "tea", content: content("Tea again", category: "")))
    try #require(pollUntil(within: 10) { run.desktop.notifyReplies.count == 2 })
    let first = run.desktop.notifyReplies[0]
    #expect(run.desktop.monitorLog.contains("uint32 \(first)\n   string \"\""), "replaces_id \(first) not sent:\n\(run.desktop.monitorLog)")
    #expect(run.desktop.displayedCount == 1)

    #expect(try await run.client.removeDelivered(["tea"]) == ["tea"])
    #expect(pollUntil(within: 10) { run.desktop.displayedCount == 0 })
    #expect(run.desktop.monitorLog.contains("member=CloseNotification"))
    // Its bus connection closes with it: a clean exit.
    #expect(run.daemon.terminate() == 0)
  }

  @Test func theServerKilledMidRunLosesNoDelivery() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    var events = run.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await run.client.add(NotificationRequest(identifier: "before", content: content("Before", category: "")))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 })

    run.desktop.killDunst()
    _ = try await run.client.add(NotificationRequest(identifier: "during", content: content("During", category: "")))
    let failed = try await nextEvent(&events) { $0.kind == .presentationFailed }
    #expect(failed.identifiers == ["during"])
    #expect(failed.note.hasPrefix("freedesktop:"), "\(failed.note)")

    try run.desktop.startDunst()
    _ = try await run.client.add(NotificationRequest(identifier: "after", content: content("After", category: "")))
    #expect(pollUntil(within: 10) { run.desktop.displayedCount == 1 }, "\(run.daemon.log)")
    let delivered = Set(try await run.client.allDelivered().map(\.request.identifier))
    #expect(delivered == ["before", "during", "after"])
    #expect(run.daemon.isRunning)
    #expect(run.daemon.log.contains("presentation failed"))

    // Replaced between two deliveries, with no failure in between: the new server is asked
    // its capabilities too (once per server).
    let asked = run.desktop.monitorLog.components(separatedBy: "member=GetCapabilities").count - 1
    let changes = run.daemon.log.components(separatedBy: "notification server changed").count
    run.desktop.killDunst()
    try run.desktop.startDunst()
    // chimed heard the name go and come back (the bus tells it; the test's add takes another way).
    try #require(pollUntil(within: 10) { run.daemon.log.components(separatedBy: "notification server changed").count == changes + 2 })
    _ = try await run.client.add(NotificationRequest(identifier: "replaced", content: content("Replaced", category: "")))
    #expect(pollUntil(within: 10) { run.desktop.displayedCount == 1 })
    #expect(run.desktop.monitorLog.components(separatedBy: "member=GetCapabilities").count - 1 == asked + 1)
  }

  @Test func anAppWithoutAlertsIsNotShownButStillDelivered() async throws {
    let run = try start()
    defer { run.daemon.terminate() }
    let settings = try await run.client.setAppSettings(AppSettingsChange(appID: Self.app, disable: [.alert]))
    #expect(settings.alert == false)
    _ = try await run.client.add(NotificationRequest(identifier: "hidden", content: content("Hidden", category: "")))
    // Another app's notification, added after it, shows: by then the first one was handled.
    let other = try ChimeClient.connect(socketPath: run.daemon.socketPath, app: "org.example.other")
    _ = try await other.add(NotificationRequest(identifier: "shown", content: content("Shown", category: "")))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 })
    #expect(run.desktop.monitorLog.contains(#"string "Shown""#))
    #expect(!run.desktop.monitorLog.contains(#"string "Hidden""#))
    #expect(try await run.client.allDelivered().map(\.request.identifier) == ["hidden"])
  }

  /// The thumbnail helper crashed, hung past its timeout, or is missing: the notification is
  /// still shown, without an image, the reason is in the log, and chimed keeps serving.
  @Test(arguments: ["crash", "hang", "missing"])
  func aHelperThatFailsLeavesTheNotificationWithoutAnImage(_ kind: String) async throws {
    let stubs = TemporaryDirectory()
    let helper = stubs.file("chime-thumbnail")
    switch kind {
    case "crash": ExecutableScript.write("kill -SEGV $$", to: helper)
    case "hang": ExecutableScript.write("exec sleep 600", to: helper)
    default: break
    }
    let run = try start(["--presenter", "freedesktop", "--sound-player", "none", "--thumbnailer", helper,
                         "--thumbnail-timeout", "0.3"])
    defer { run.daemon.terminate() }
    let png = run.dir.file("work/cup.png")
    MediaCorpus.copy("images/png-rgb.png", to: png)
    var tea = content("Tea", category: "")
    tea.attachments = [ChimeCore.Attachment(identifier: "cup", path: png)]
    _ = try await run.client.add(NotificationRequest(identifier: "tea", content: tea))
    try #require(pollUntil(within: 10) { run.desktop.displayedCount == 1 }, "\(run.daemon.log)")
    #expect(run.desktop.monitorLog.contains(#"string "Tea""#))
    #expect(!run.desktop.monitorLog.contains(#"string "image-path""#), "shown without an image")
    let log = run.daemon.log
    switch kind {
    case "crash":
      #expect(log.contains("THUMBNAIL_RENDER_FAILED") && log.contains("crashed: killed by signal 11"), "\(log)")
    case "hang":
      #expect(log.contains("THUMBNAIL_RENDER_FAILED") && log.contains("timed out: still running after 300 ms"), "\(log)")
    default:
      #expect(log.components(separatedBy: "thumbnails off: no chime-thumbnail helper found").count == 2, "once, at start-up: \(log)")
      #expect(!log.contains("THUMBNAIL_RENDER_FAILED"), "no attempt per notification")
    }
    // Still serving: another delivery, and a call answered.
    _ = try await run.client.add(NotificationRequest(identifier: "more", content: content("More", category: "")))
    try #require(pollUntil(within: 10) { run.desktop.notifyReplies.count == 2 })
    #expect(Set(try await run.client.allDelivered().map(\.request.identifier)) == ["tea", "more"])
    #expect(run.daemon.isRunning)
  }
}
