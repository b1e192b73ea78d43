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
  /// chimed's own: `pending` as its store packed it (`chime.v1.PendingRequest`), which the
  /// reply carries instead of packing the request a second time. Not part of the value: `==`
  /// and `hash` leave it out.
  package var packedPending: [UInt8]?

  public init(pending: PendingRequest, replaced: Bool, delivered: DeliveredNotification? = nil) {
    self.pending = pending
    self.replaced = replaced
    self.delivered = delivered
  }

  public static func == (a: AddResult, b: AddResult) -> Bool {
    a.pending == b.pending && a.replaced == b.replaced && a.delivered == b.delivered
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(pending)
    hasher.combine(replaced)
    hasher.combine(delivered)
  }
}

/// What `Snooze` asks: the app's delivered notification and for how long (checked by the
/// service: 1 minute ... 1 week).
public struct SnoozeRequest: Hashable, Sendable {
  public var notificationIdentifier: String
  public var durationSeconds: Int64

  public init(notificationIdentifier: String, durationSeconds: Int64) {
    self.notificationIdentifier = notificationIdentifier
    self.durationSeconds = durationSeconds
  }
}
