/// The read queries of the hot listings, named so tests can check their query plans: each
/// walks an index in order (no table scan, no temporary sort).
enum Queries {
  static let soonestFirst = """
    SELECT next_fire, app, identifier FROM pending ORDER BY next_fire, app, identifier LIMIT ?
    """
  static let soonestAfter = """
    SELECT next_fire, app, identifier FROM pending
    WHERE (next_fire, app, identifier) > (?, ?, ?)
    ORDER BY next_fire, app, identifier LIMIT ?
    """
  /// Snoozed notifications in the scheduler's order; `>=` for the key of a pending request with
  /// the same (due, app, identifier), which a snoozed key follows.
  static let soonestSnoozedFirst = """
    SELECT until, app, identifier FROM snoozed ORDER BY until, app, identifier LIMIT ?
    """
  static let soonestSnoozedAfter = """
    SELECT until, app, identifier FROM snoozed
    WHERE (until, app, identifier) > (?, ?, ?)
    ORDER BY until, app, identifier LIMIT ?
    """
  static let soonestSnoozedFrom = """
    SELECT until, app, identifier FROM snoozed
    WHERE (until, app, identifier) >= (?, ?, ?)
    ORDER BY until, app, identifier LIMIT ?
    """
  static let pendingFirst = """
    SELECT next_fire, fire_count, body FROM pending WHERE app = ? ORDER BY next_fire, identifier LIMIT ?
    """
  static let pendingAfter = """
    SELECT next_fire, fire_count, body FROM pending
    WHERE app = ? AND (next_fire, identifier) > (?, ?)
    ORDER BY next_fire, identifier LIMIT ?
    """
  /// One app's snoozed notifications, listed after its pending requests in the same order.
  static let snoozedFirst = """
    SELECT until, snooze_count, body, snoozed_at FROM snoozed WHERE app = ? ORDER BY until, identifier LIMIT ?
    """
  static let snoozedAfter = """
    SELECT until, snooze_count, body, snoozed_at FROM snoozed
    WHERE app = ? AND (until, identifier) > (?, ?)
    ORDER BY until, identifier LIMIT ?
    """
  static let snoozedFrom = """
    SELECT until, snooze_count, body, snoozed_at FROM snoozed
    WHERE app = ? AND (until, identifier) >= (?, ?)
    ORDER BY until, identifier LIMIT ?
    """
  static let deliveredFirst = """
    SELECT body FROM delivered WHERE app = ? ORDER BY delivered_at DESC, identifier LIMIT ?
    """
  /// `delivered_at <= ?` bounds the index range; the rest only filters ties.
  static let deliveredAfter = """
    SELECT body FROM delivered
    WHERE app = ? AND delivered_at <= ? AND (delivered_at < ? OR identifier > ?)
    ORDER BY delivered_at DESC, identifier LIMIT ?
    """
  static let eventsAfter = """
    SELECT cursor, at, kind, body FROM event WHERE app = ? AND cursor > ? ORDER BY cursor LIMIT ?
    """

  /// Per app, the newest event about to be pruned. SQLite returns `at` from the row holding
  /// MAX(cursor) of each group. NOT INDEXED keeps it on the rowid range of the pruned events:
  /// grouping by `event_by_app` (app, cursor) would walk every stored event on every commit.
  static let recordPruned = """
    INSERT INTO event_pruned (app, through, at)
    SELECT app, MAX(cursor), at FROM event NOT INDEXED WHERE cursor <= ? GROUP BY app
    ON CONFLICT (app) DO UPDATE SET through = excluded.through, at = excluded.at
    """

  static let all = [soonestFirst, soonestAfter, pendingFirst, pendingAfter, deliveredFirst, deliveredAfter, eventsAfter,
                    soonestSnoozedFirst, soonestSnoozedAfter, soonestSnoozedFrom, snoozedFirst, snoozedAfter, snoozedFrom]
}
