public import ChimeCore

extension ChimeDatabase {
  /// Every app's delivered notifications delivered at or after `since` whose content rings and
  /// whose ring has no recorded end: what a starting chimed may resume (`RingRule.isRinging`
  /// decides). A ring lasts at most 30 minutes, so `since` keeps this to recent deliveries.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func ringCandidates(since: Instant) throws(ChimeError) -> [(app: String, delivered: DeliveredNotification)] {
    let codec = self.codec
    return try read("ring candidates since \(since)") { db in
      let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT body, app FROM delivered WHERE delivered_at >= ?"),
                                     arguments: [since.unixMillis])
      var found: [(app: String, delivered: DeliveredNotification)] = []
      while let row = try rows.next() {
        let delivered = try Self.delivered(from: row, codec: codec)
        guard delivered.request.content.ring != nil, delivered.ringEnded == nil else { continue }
        found.append((app: try StoreError.decoding("delivered notification") { try row.decode(String.self, atIndex: 1) }, delivered: delivered))
      }
      return found
    }
  }
}
