import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Testing

/// `ListKnownApps`, the user's list of apps (Chime Center's Apps page): every app that asked,
/// was switched by the user, registered, or has pending or delivered notifications, once each,
/// by identifier; the others not at all.
@Suite(.testTimeLimit) struct KnownAppsTests {
  @Test(arguments: Transport.allCases) func listsEveryAppThatAskedRegisteredOrPosted(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let user = try d.client(app: "io.github.chime.Center", over: transport)
    #expect(try await user.listKnownApps().isEmpty)

    _ = try await d.client(app: "org.example.asked", over: transport).requestAuthorization([.alert])
    _ = try await d.client(app: "org.example.registered", over: transport).registerApp(displayName: "Registered")
    let pending = try d.client(app: "org.example.pending", over: transport)
    _ = try await pending.add(.tea("later", in: 600))
    _ = try await d.client(app: "org.example.delivered", over: transport).add(.tea("now", in: nil))
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.switched", status: .denied))
    _ = try await d.client(app: "org.example.silent", over: transport).settings()  // reading leaves no trace

    let known = try await user.listKnownApps()
    #expect(known.map(\.appID) == ["org.example.asked", "org.example.delivered", "org.example.pending",
                                   "org.example.registered", "org.example.switched"])
    let registered = try #require(known.first { $0.appID == "org.example.registered" })
    #expect(registered.registered && registered.displayName == "Registered")
    #expect(known.filter(\.registered).map(\.appID) == ["org.example.registered"])

    // An app known only by its pending request leaves the list with it.
    _ = try await pending.removePending(["later"])
    #expect(try await !user.listKnownApps().map(\.appID).contains("org.example.pending"))
  }
}
