import ChimeCore
import Testing
@testable import ChimeStore

/// SetMediaPlayback on a temporary store: kept in the delivered record, checked in its own
/// transaction, gone with the notification.
@Suite struct MediaPlaybackStoreTests {
  func song(_ id: String, category: String) -> DeliveredNotification {
    var r = Fixtures.request(id, after: 60)
    r.trigger = nil
    r.content.categoryIdentifier = category
    return DeliveredNotification(request: r, delivered: t0, due: t0)
  }

  func report(_ id: String, _ playback: MediaPlayback) -> SetMediaPlayback {
    SetMediaPlayback(app: "app", report: MediaPlaybackReport(extensionIdentifier: "player", notificationIdentifier: id, playback: playback),
                     categories: ["music"])
  }

  @Test func theReportIsKeptWithTheDeliveredNotificationAcrossAReopen() throws {
    let store = try StoreFixture()
    try store.commit(DeliverNow(app: "app", delivered: song("song", category: "music"), at: t0))
    #expect(try store.commit(report("song", .playing)).mediaPlayback == .playing)
    #expect(try store.commit(report("song", .paused)).mediaPlayback == .paused)
    try store.reopen()
    #expect(try store.allDelivered("app").first?.mediaPlayback == .paused)
    // Delivered again with the same identifier: a new notification, nothing reported yet.
    try store.commit(DeliverNow(app: "app", delivered: song("song", category: "music"), at: t0))
    #expect(try store.allDelivered("app").first?.mediaPlayback == nil)
  }

  @Test func refusesANotificationNotDeliveredOrOutsideTheExtensionsCategories() throws {
    let store = try StoreFixture()
    try store.commit(DeliverNow(app: "app", delivered: song("news", category: "news"), at: t0))
    do {
      _ = try store.commit(report("missing", .playing))
      Issue.record("expected NOTIFICATION_NOT_DELIVERED")
    } catch let error as ChimeError {
      #expect(error.reason == "NOTIFICATION_NOT_DELIVERED")
    }
    do {
      _ = try store.commit(report("news", .playing))
      Issue.record("expected EXTENSION_NOT_LIVE")
    } catch let error as ChimeError {
      #expect(error.reason == "EXTENSION_NOT_LIVE")
    }
    #expect(try store.allDelivered("app").first?.mediaPlayback == nil)
  }
}
