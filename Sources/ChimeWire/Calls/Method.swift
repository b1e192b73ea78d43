/// The NotificationCenter methods and their wire paths.
public enum Method: String, CaseIterable, Sendable {
  case add = "/chime.v1.NotificationCenter/Add"
  case getPending = "/chime.v1.NotificationCenter/GetPending"
  case removePending = "/chime.v1.NotificationCenter/RemovePending"
  case removeAllPending = "/chime.v1.NotificationCenter/RemoveAllPending"
  case getDelivered = "/chime.v1.NotificationCenter/GetDelivered"
  case removeDelivered = "/chime.v1.NotificationCenter/RemoveDelivered"
  case removeAllDelivered = "/chime.v1.NotificationCenter/RemoveAllDelivered"
  case subscribe = "/chime.v1.NotificationCenter/Subscribe"
  case nextTriggerDates = "/chime.v1.NotificationCenter/NextTriggerDates"
  case setCategories = "/chime.v1.NotificationCenter/SetCategories"
  case getCategories = "/chime.v1.NotificationCenter/GetCategories"
  case respond = "/chime.v1.NotificationCenter/Respond"
  case registerExtension = "/chime.v1.NotificationCenter/RegisterExtension"
  case answerResponse = "/chime.v1.NotificationCenter/AnswerResponse"
  case pressMediaButton = "/chime.v1.NotificationCenter/PressMediaButton"
  case reportMediaPlayback = "/chime.v1.NotificationCenter/ReportMediaPlayback"
  case requestAuthorization = "/chime.v1.NotificationCenter/RequestAuthorization"
  case getSettings = "/chime.v1.NotificationCenter/GetSettings"
  case setBadgeCount = "/chime.v1.NotificationCenter/SetBadgeCount"
  case setAppSettings = "/chime.v1.NotificationCenter/SetAppSettings"
  case registerApp = "/chime.v1.NotificationCenter/RegisterApp"
  case getApp = "/chime.v1.NotificationCenter/GetApp"
  case listApps = "/chime.v1.NotificationCenter/ListApps"
  case checkSound = "/chime.v1.NotificationCenter/CheckSound"
  case push = "/chime.v1.NotificationCenter/Push"
  case answerService = "/chime.v1.NotificationCenter/AnswerService"
  case getServerInfo = "/chime.v1.NotificationCenter/GetServerInfo"

  /// True for calls that answer with a stream of replies.
  public var isServerStreaming: Bool { self == .subscribe || self == .registerExtension }
}
