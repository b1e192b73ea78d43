import ChimeCore
import Testing

/// Snooze durations: 1 minute to 1 week in whole seconds, read as people type them, shown on
/// buttons; a category's list; the snooze buttons of a desktop notification and the response
/// a click on one makes; what a `chime.snooze` response does given the extension's answer.
@Suite struct SnoozeDurationTests {
  @Test(arguments: [("1m", 60), ("5m", 300), ("10m", 600), ("1h30m", 5400), ("1d", 86400), ("1w", 604_800), ("90s", 90), ("7d", 604_800)])
  func durationsAreReadAsTyped(_ text: String, _ seconds: Int64) throws {
    #expect(try SnoozeDuration(parsing: text).seconds == seconds)
  }

  @Test(arguments: ["59s", "0", "1w1s", "8d", "", "soon", "1.5s", "-5m", "10 parsecs", "90"])
  func durationsOutsideAMinuteToAWeekOrNotDurationsAreRefused(_ text: String) {
    #expect(throws: ChimeError.self) { try SnoozeDuration(parsing: text) }
    do {
      _ = try SnoozeDuration(parsing: text)
    } catch {
      #expect(error.reason == "INVALID_SNOOZE_DURATION" && error.code == .invalidArgument, "\(error)")
    }
  }

  /// The refusal says what was wrong: a bare number needs a unit, and a duration out of bounds
  /// names the bound it crossed (not "whole seconds", which `8d` is).
  @Test(arguments: [("10", "10 needs a unit: say 10s or 10m"), ("8d", "8d is longer than the longest snooze, 1 week"),
                    ("2w", "2w is longer than the longest snooze, 1 week"), ("30s", "30s is shorter than the shortest snooze, 1 minute"),
                    ("1.5s", "1.5s is not a whole number of seconds")])
  func refusalsSayWhichRuleWasBroken(_ text: String, _ message: String) throws {
    let error = try #require(throws: ChimeError.self) { try SnoozeDuration(parsing: text) }
    #expect(error.message.hasPrefix(message), "\(error.message)")
    #expect(error.reason == "INVALID_SNOOZE_DURATION")
  }

  /// The service's check of a duration in seconds names the bound too.
  @Test func secondsOutOfBoundsNameTheBound() throws {
    let long = try #require(throws: ChimeError.self) { try SnoozeDuration(seconds: 8 * 86400) }
    #expect(long.message.hasPrefix("8d is longer than the longest snooze, 1 week"), "\(long.message)")
    let short = try #require(throws: ChimeError.self) { try SnoozeDuration(seconds: 30) }
    #expect(short.message.hasPrefix("30s is shorter than the shortest snooze, 1 minute"), "\(short.message)")
  }

  @Test func boundsAreInclusive() throws {
    #expect(try SnoozeDuration(seconds: 60).seconds == 60)
    #expect(try SnoozeDuration(seconds: 604_800).seconds == 604_800)
    #expect(throws: ChimeError.self) { try SnoozeDuration(seconds: 59) }
    #expect(throws: ChimeError.self) { try SnoozeDuration(seconds: 604_801) }
    #expect(throws: ChimeError.self) { try SnoozeDuration(seconds: -600) }
  }

  @Test(arguments: [(60, "Snooze 1 min"), (300, "Snooze 5 min"), (3600, "Snooze 1 h"), (5400, "Snooze 1 h 30 min"),
                    (86400, "Snooze 1 day"), (172_800 + 3600, "Snooze 2 days 1 h")])
  func buttonTitles(_ seconds: Int64, _ title: String) throws {
    #expect(try SnoozeDuration(seconds: seconds).buttonTitle == title)
  }

  @Test func aCategoryOffersAtMostFiveDistinctDurations() throws {
    try SnoozeDuration.validateOffered([300, 600, 3600], field: "c")
    #expect(throws: ChimeError.self) { try SnoozeDuration.validateOffered([60, 120, 180, 240, 300, 360], field: "c") }
    #expect(throws: ChimeError.self) { try SnoozeDuration.validateOffered([300, 300], field: "c") }
    #expect(throws: ChimeError.self) { try SnoozeDuration.validateOffered([30], field: "c") }
    var category = NotificationCategory(identifier: "alarm")
    category.snoozeSeconds = [10]
    do {
      try CategoryValidator.validate([category])
      Issue.record("a 10 s snooze is refused")
    } catch {
      #expect(error.reason == "INVALID_SNOOZE_DURATION" && error.field == "categories[0].snooze_seconds[0]", "\(error)")
    }
  }

  @Test func snoozeButtonsFollowTheActionsAndAClickIsASnoozeResponse() {
    var category = NotificationCategory(identifier: "alarm", actions: [NotificationAction(identifier: "stop", title: "Stop")])
    category.snoozeSeconds = [300, 3600]
    #expect(DesktopNotificationPlan.actions(category) == [
      "default", "Open", "stop", "Stop", "chime-snooze:300", "Snooze 5 min", "chime-snooze:3600", "Snooze 1 h",
    ])
    let click = DesktopNotificationPlan.response(forKey: "chime-snooze:300", notification: "wake")
    #expect(click.actionIdentifier == NotificationAction.snoozeIdentifier && click.snoozeSeconds == 300 && click.notificationIdentifier == "wake")
    let stop = DesktopNotificationPlan.response(forKey: "stop", notification: "wake")
    #expect(stop.actionIdentifier == "stop" && stop.snoozeSeconds == 0)
    // An action spelled like a snooze key is escaped, and comes back as itself.
    let odd = NotificationAction(identifier: "chime-snooze:60", title: "Odd")
    let key = DesktopNotificationPlan.actionKey(odd.identifier)
    #expect(key != odd.identifier && DesktopNotificationPlan.actionIdentifier(forKey: key) == odd.identifier)
  }

  @Test func aSnoozeResponseSnoozesUnlessTheExtensionHandledIt() throws {
    var response = NotificationResponse(notificationIdentifier: "wake", actionIdentifier: NotificationAction.snoozeIdentifier)
    response.snoozeSeconds = 300
    let five = try SnoozeDuration(seconds: 300)
    #expect(ResponsePlan.decide(response, extension: .noExtension) == ResponsePlan(removesDelivered: false, forwardsToApp: true, snoozes: five))
    #expect(ResponsePlan.decide(response, extension: .dismissAndForward).snoozes == five)
    #expect(ResponsePlan.decide(response, extension: .dismiss) == ResponsePlan(removesDelivered: true, forwardsToApp: false))
    #expect(ResponsePlan.decide(response, extension: .doNotDismiss) == ResponsePlan(removesDelivered: false, forwardsToApp: false))

    var category = NotificationCategory(identifier: "alarm")
    let delivered = DeliveredNotification(request: NotificationRequest(identifier: "wake", content: NotificationContent(title: "Wake")),
                                          delivered: Instant(unixMillis: 0), due: Instant(unixMillis: 0), category: category)
    #expect(throws: ChimeError.self) { try ResponsePlan.check(response, delivered: delivered) }
    category.snoozeSeconds = [300]
    var offered = delivered
    offered.category = category
    try ResponsePlan.check(response, delivered: offered)
    response.snoozeSeconds = 600
    #expect(throws: ChimeError.self) { try ResponsePlan.check(response, delivered: offered) }
  }
}
