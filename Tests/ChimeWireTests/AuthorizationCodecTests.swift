import ChimeCore
import Testing
@testable import ChimeWire

@Suite struct AuthorizationCodecTests {
  @Test func authorizationMessagesRoundTrip() throws {
    let every: AuthorizationOptions = [.alert, .sound, .badge, .carPlay, .criticalAlert, .providesAppNotificationSettings,
                                       .provisional, .announcement, .timeSensitive]
    for options in [AuthorizationOptions(), [.alert, .provisional], every] {
      #expect(try WireCodec.decodeAuthorizationRequest(WireCodec.encodeAuthorizationRequest(options)) == options)
    }
    let settings = NotificationSettings(status: .provisional, alert: true, sound: false, badge: true, criticalAlert: true,
                                        timeSensitive: true, carPlay: true, announcement: true,
                                        providesAppNotificationSettings: true, badgeCount: 12)
    #expect(try WireCodec.decodeNotificationSettings(WireCodec.encodeNotificationSettings(settings)) == settings)
    let result = AuthorizationResult(granted: true, settings: settings)
    #expect(try WireCodec.decodeAuthorizationResponse(WireCodec.encodeAuthorizationResponse(result)) == result)
    #expect(try WireCodec.decodeSetBadgeCountRequest(WireCodec.encodeSetBadgeCountRequest(-3)) == -3)
  }

  @Test func appSettingsChangesRoundTripLeavingUnsetFieldsUnset() throws {
    let changes = [
      AppSettingsChange(appID: "org.example.a"),
      AppSettingsChange(appID: "org.example.a", status: .denied),
      AppSettingsChange(appID: "org.example.a", status: .authorized, enable: [.criticalAlert, .carPlay], disable: [.sound, .badge, .announcement]),
      AppSettingsChange(appID: "org.example.a", enable: [.alert, .timeSensitive]),
    ]
    for change in changes {
      #expect(try WireCodec.decodeAppSettingsRequest(WireCodec.encodeAppSettingsRequest(change)) == change)
    }
  }

  @Test func badgeEventsCarryTheirCount() throws {
    let event = Event(cursor: 3, at: Instant(unixMillis: 1_000), kind: .badgeChanged, identifiers: ["t"], badgeCount: 0)
    #expect(try WireCodec.decodeEvent(WireCodec.encodeEvent(event)) == event)
    let delivered = Event(cursor: 4, at: Instant(unixMillis: 1_000), kind: .pendingRemoved, identifiers: ["t"])
    #expect(try WireCodec.decodeEvent(WireCodec.encodeEvent(delivered)).badgeCount == nil)
  }
}
