/// Values the NotificationCenter calls take and return, shared by server and client.

/// One page of a listing.
public struct PageRequest: Hashable, Sendable {
  /// 1...`Limits.pageSizeMax`; 0 means `Limits.pageSizeDefault`.
  public var pageSize: Int
  /// Opaque token from the previous page; empty for the first page.
  public var pageToken: String

  public init(pageSize: Int = 0, pageToken: String = "") {
    self.pageSize = pageSize
    self.pageToken = pageToken
  }

  /// The effective page size; throws INVALID_ARGUMENT `INVALID_PAGE_SIZE` when out of range.
  public func resolvedSize() throws(ChimeError) -> Int {
    if pageSize == 0 { return Limits.pageSizeDefault }
    guard pageSize > 0, pageSize <= Limits.pageSizeMax else {
      throw ChimeError(.invalidPageSize, "page size must be within 1...\(Limits.pageSizeMax)", field: "page_size")
    }
    return pageSize
  }
}

public struct Page<Item: Sendable & Hashable>: Hashable, Sendable {
  public var items: [Item]
  /// Empty on the last page.
  public var nextPageToken: String

  public init(items: [Item], nextPageToken: String = "") {
    self.items = items
    self.nextPageToken = nextPageToken
  }
}

/// What `Add` answers.
public struct AddResult: Hashable, Sendable {
  public var pending: PendingRequest
  /// An earlier pending request with the same identifier was replaced.
  public var replaced: Bool
  /// Set when the request had no trigger and was delivered at once.
  public var delivered: DeliveredNotification?

  public init(pending: PendingRequest, replaced: Bool, delivered: DeliveredNotification? = nil) {
    self.pending = pending
    self.replaced = replaced
    self.delivered = delivered
  }
}

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
