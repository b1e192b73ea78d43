public import ChimeCore
import ChimeRecords

/// Decides where a page ends: after `size` records, or earlier when the next record's bytes
/// would pass `maxBytes` (never before the first record). `full` says a later page exists.
struct PageBudget {
  let size: Int
  let maxBytes: Int
  private var count = 0
  private var bytes = 0
  private(set) var full = false

  init(size: Int, maxBytes: Int) {
    self.size = size
    self.maxBytes = maxBytes
  }

  /// Per record, besides its body: the repeated-field tag and length prefix.
  private static let overhead = 16

  mutating func admit(bodyBytes: Int) -> Bool {
    let cost = bodyBytes + Self.overhead
    if count == size || (count > 0 && bytes + cost > maxBytes) {
      full = true
      return false
    }
    count += 1
    bytes += cost
    return true
  }
}

extension ChimeDatabase {
  /// One page of `app`'s pending requests and snoozed notifications (`snoozeCount > 0`), ordered
  /// by (next fire instant, identifier), a pending request before a snoozed notification with
  /// the same ones. A page also ends early (with a next token) before its records' bytes pass
  /// `maxBytes`, so a reply always fits in a frame; it holds at least one record.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` (field `page_size`) or `INVALID_PAGE_TOKEN`
  ///   (field `page_token`); UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func pendingPage(app: String, page: PageRequest, maxBytes: Int = .max) throws(ChimeError) -> Page<PendingRequest> {
    let size = try page.resolvedSize()
    let token = try PageToken.decode(page.pageToken, as: .pending, .snoozed)
    let codec = self.codec
    return try read("pending page of \(app)") { db in
      // The app's snoozed notifications from the token on (few, usually none), then its
      // pending requests, decoded only as far as the page admits them unless the two merge.
      var snoozed: [(item: PendingRequest, bytes: Int)] = []
      let snoozedRows: RowCursor
      if let token {
        snoozedRows = try Row.fetchCursor(db.cachedStatement(sql: token.kind == .snoozed ? Queries.snoozedAfter : Queries.snoozedFrom),
                                          arguments: [app, token.instant, token.identifier, size + 1])
      } else {
        snoozedRows = try Row.fetchCursor(db.cachedStatement(sql: Queries.snoozedFirst), arguments: [app, size + 1])
      }
      while let row = try snoozedRows.next() {
        let bodyBytes = try StoreError.decoding("snoozed notification") { try row.decode([UInt8].self, atIndex: 2).count }
        snoozed.append((try Self.snoozed(from: row, codec: codec).entry, bodyBytes))
      }
      let rows: RowCursor
      if let token {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.pendingAfter),
                                   arguments: [app, token.instant, token.identifier, size + 1])
      } else {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.pendingFirst), arguments: [app, size + 1])
      }
      var items: [PendingRequest] = []
      var budget = PageBudget(size: size, maxBytes: maxBytes)
      if snoozed.isEmpty {
        while let row = try rows.next() {
          let bodyBytes = try StoreError.decoding("pending request") { try row.decode([UInt8].self, atIndex: 2).count }
          guard budget.admit(bodyBytes: bodyBytes) else { break }
          items.append(try Self.pending(from: row, codec: codec))
        }
      } else {
        var listed = snoozed
        while let row = try rows.next() {
          let bodyBytes = try StoreError.decoding("pending request") { try row.decode([UInt8].self, atIndex: 2).count }
          listed.append((try Self.pending(from: row, codec: codec), bodyBytes))
        }
        listed.sort { Self.listedBefore($0.item, $1.item) }
        for (item, bytes) in listed {
          guard budget.admit(bodyBytes: bytes) else { break }
          items.append(item)
        }
      }
      guard budget.full, let last = items.last else { return Page(items: items) }
      return Page(items: items, nextPageToken: PageToken(kind: last.snoozeCount > 0 ? .snoozed : .pending, instant: last.nextFire.unixMillis,
                                                         identifier: last.request.identifier).encoded)
    }
  }

  /// The pending listing's order, as SQLite sorts its columns (identifiers by their bytes).
  private static func listedBefore(_ a: PendingRequest, _ b: PendingRequest) -> Bool {
    if a.nextFire != b.nextFire { return a.nextFire < b.nextFire }
    if !a.request.identifier.utf8.elementsEqual(b.request.identifier.utf8) {
      return a.request.identifier.utf8.lexicographicallyPrecedes(b.request.identifier.utf8)
    }
    return a.snoozeCount == 0 && b.snoozeCount > 0
  }

  /// `app`'s pending request named `identifier`, or nil.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func pending(app: String, identifier: String) throws(ChimeError) -> PendingRequest? {
    let codec = self.codec
    return try read("pending \(app)/\(identifier)") { db in
      let select = try db.cachedStatement(sql: "SELECT next_fire, fire_count, body FROM pending WHERE app = ? AND identifier = ?")
      return try Row.fetchOne(select, arguments: [app, identifier]).map { row in try Self.pending(from: row, codec: codec) }
    }
  }

  /// One page of `app`'s delivered notifications, newest first: ordered by delivery instant
  /// descending, then identifier ascending.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_PAGE_SIZE` or `INVALID_PAGE_TOKEN`; UNAVAILABLE
  ///   `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func deliveredPage(app: String, page: PageRequest, maxBytes: Int = .max) throws(ChimeError) -> Page<DeliveredNotification> {
    let size = try page.resolvedSize()
    let token = try PageToken.decode(page.pageToken, as: .delivered)
    let codec = self.codec
    return try read("delivered page of \(app)") { db in
      let rows: RowCursor
      if let token {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.deliveredAfter),
                                   arguments: [app, token.instant, token.instant, token.identifier, size + 1])
      } else {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.deliveredFirst), arguments: [app, size + 1])
      }
      var items: [DeliveredNotification] = []
      var budget = PageBudget(size: size, maxBytes: maxBytes)
      while let row = try rows.next() {
        let body = try StoreError.decoding("delivered notification") { try row.decode([UInt8].self, atIndex: 0) }
        guard budget.admit(bodyBytes: body.count) else { break }
        items.append(try StoreError.decoding("delivered notification") { try codec.decode(DeliveredNotification.self, from: body) })
      }
      guard budget.full, let last = items.last else { return Page(items: items) }
      return Page(items: items, nextPageToken: PageToken(kind: .delivered, instant: last.delivered.unixMillis,
                                                         identifier: last.request.identifier).encoded)
    }
  }

  /// `app`'s delivered notification named `identifier`, or nil.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func delivered(app: String, identifier: String) throws(ChimeError) -> DeliveredNotification? {
    let codec = self.codec
    return try read("delivered \(app)/\(identifier)") { db in
      let select = try db.cachedStatement(sql: "SELECT body FROM delivered WHERE app = ? AND identifier = ?")
      return try Row.fetchOne(select, arguments: [app, identifier]).map { row in try Self.delivered(from: row, codec: codec) }
    }
  }

  /// The soonest schedule keys of all apps strictly after `after` (nil: from the start), in
  /// `ScheduleKey` order (due, app, identifier), at most `limit`. Walks an index: O(limit).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func soonest(after: ScheduleKey?, limit: Int) throws(ChimeError) -> [ScheduleKey] {
    guard limit > 0 else { return [] }
    return try read("soonest \(limit) after \(after.map(\.description) ?? "start")") { db in
      let rows: RowCursor
      if let after {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.soonestAfter),
                                   arguments: [after.due.unixMillis, after.app, after.identifier, limit])
      } else {
        rows = try Row.fetchCursor(db.cachedStatement(sql: Queries.soonestFirst), arguments: [limit])
      }
      var keys: [ScheduleKey] = []
      keys.reserveCapacity(min(limit, 4096))
      while let row = try rows.next() {
        keys.append(try StoreError.decoding("pending request") {
          ScheduleKey(due: Instant(unixMillis: try row.decode(atIndex: 0)), app: try row.decode(atIndex: 1), identifier: try row.decode(atIndex: 2))
        })
      }
      // Snoozed notifications walk their own index; the first `limit` of both, merged, are the
      // first `limit` of the union.
      let snoozedRows: RowCursor
      if let after {
        snoozedRows = try Row.fetchCursor(db.cachedStatement(sql: after.snoozed ? Queries.soonestSnoozedAfter : Queries.soonestSnoozedFrom),
                                          arguments: [after.due.unixMillis, after.app, after.identifier, limit])
      } else {
        snoozedRows = try Row.fetchCursor(db.cachedStatement(sql: Queries.soonestSnoozedFirst), arguments: [limit])
      }
      var snoozed: [ScheduleKey] = []
      while let row = try snoozedRows.next() {
        snoozed.append(try StoreError.decoding("snoozed notification") {
          ScheduleKey(due: Instant(unixMillis: try row.decode(atIndex: 0)), app: try row.decode(atIndex: 1), identifier: try row.decode(atIndex: 2),
                      snoozed: true)
        })
      }
      guard !snoozed.isEmpty else { return keys }
      return Array((keys + snoozed).sorted().prefix(limit))
    }
  }

  /// Stored events of `app` with cursor > `after`, ascending, at most `limit` of them.
  ///
  /// When retention pruned events of `app` with cursors above `after`, the answer starts with
  /// a synthetic `.eventsLost` event (cursor 0, at the instant of the newest pruned one) in
  /// addition to the `limit` stored ones, so a reader always makes progress.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func events(app: String, after: UInt64, limit: Int) throws(ChimeError) -> [Event] {
    let codec = self.codec
    return try read("events of \(app) after \(after)") { db in
      try EventLog.events(app: app, after: after, limit: limit, db: db, codec: codec)
    }
  }

  /// The highest event cursor ever assigned (0 if none), pruned or not.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func lastCursor() throws(ChimeError) -> UInt64 {
    try read("last cursor") { db in
      // The largest stored cursor, or what retention recorded as pruned when that is larger.
      let newest = try Int64.fetchOne(db.cachedStatement(sql: """
        SELECT MAX(COALESCE((SELECT MAX(cursor) FROM event), 0), COALESCE((SELECT value FROM meta WHERE key = ?), 0))
        """), arguments: [MetaKey.eventPrunedThrough])
      return UInt64(max(newest ?? 0, 0))
    }
  }

  /// The number of pending requests of all apps (a full count: for stats, not hot paths).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func pendingCount() throws(ChimeError) -> Int {
    try read("pending count") { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM pending")) ?? 0
    }
  }

  /// The number of stored events (bounded by the retention).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func eventCount() throws(ChimeError) -> Int {
    try read("event count") { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM event")) ?? 0
    }
  }

  /// Columns next_fire, fire_count, body.
  static func pending(from row: Row, codec: RecordCodec) throws -> PendingRequest {
    try StoreError.decoding("pending request") {
      var pending = try codec.decode(PendingRequest.self, from: row.decode(atIndex: 2))
      pending.nextFire = Instant(unixMillis: try row.decode(atIndex: 0))
      pending.fireCount = UInt64(clamping: try row.decode(Int64.self, atIndex: 1))
      return pending
    }
  }

  /// Column body.
  static func delivered(from row: Row, codec: RecordCodec) throws -> DeliveredNotification {
    try StoreError.decoding("delivered notification") { try codec.decode(DeliveredNotification.self, from: row.decode(atIndex: 0)) }
  }
}
