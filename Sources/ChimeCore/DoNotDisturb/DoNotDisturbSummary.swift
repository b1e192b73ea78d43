/// What arrived quietly while Do Not Disturb was on, said in one popup when it ends:
/// "3 notifications while Do Not Disturb was on: Mail (2), Calendar".
public struct DoNotDisturbSummary: Hashable, Sendable {
  /// Each app that delivered quietly, by the name the desktop shows for it, with its count.
  public struct AppCount: Hashable, Sendable {
    public var name: String
    public var count: Int
    public init(name: String, count: Int) {
      self.name = name
      self.count = count
    }
  }

  /// Most first, then by name.
  public let apps: [AppCount]

  /// Apps named in the text; more are counted as "and N more".
  public static let namedApps = 5

  public init(_ apps: [AppCount]) {
    self.apps = apps.filter { $0.count > 0 }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
  }

  public var total: Int { apps.reduce(0) { $0 + $1.count } }
  public var isEmpty: Bool { apps.isEmpty }

  /// The popup's title.
  public static let title = "Do Not Disturb is off"

  /// The popup's body.
  public var text: String {
    let total = self.total
    var names = apps.prefix(Self.namedApps).map { $0.count == 1 ? $0.name : "\($0.name) (\($0.count))" }
    let more = apps.count - names.count
    if more > 0 { names.append("and \(more) more app\(more == 1 ? "" : "s")") }
    return "\(total) notification\(total == 1 ? "" : "s") while Do Not Disturb was on: " + names.joined(separator: ", ")
  }
}

extension DoNotDisturbSummary {
  /// The app the summary is shown as: Chime's own, a name no app can have (app ids take no
  /// colon), so nothing a click on it sends reaches an app.
  public static let appIdentifier = "chime:do-not-disturb"
  /// The summary's identifier on screen: a new summary replaces one still shown.
  public static let identifier = "chime.do-not-disturb-summary"

  /// The summary as a notification for the presenters (never stored): active, no sound.
  public func notification(at instant: Instant) -> DeliveredNotification {
    var content = NotificationContent(title: Self.title, body: text)
    content.interruptionLevel = .active
    return DeliveredNotification(request: NotificationRequest(identifier: Self.identifier, content: content), delivered: instant, due: instant)
  }
}
