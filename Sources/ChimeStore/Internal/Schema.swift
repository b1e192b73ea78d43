import ChimeCore
import ChimeRecords

/// The store's schema as append-only named migrations. Never edit a shipped migration: add
/// the next one ("v2", ...) — attachments, apps and categories come that way.
enum Schema {
  static let migrator: DatabaseMigrator = {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      // Pending requests. `body` is the PendingRequest as protobuf (chime.v1.PendingRequest); `next_fire` and `fire_count`
      // are authoritative over the copies inside `body` (a fire updates only the columns).
      try db.execute(sql: """
        CREATE TABLE pending (
          app TEXT NOT NULL CHECK (length(app) > 0),
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          next_fire INTEGER NOT NULL,
          added INTEGER NOT NULL,
          fire_count INTEGER NOT NULL CHECK (fire_count >= 0),
          body BLOB NOT NULL,
          PRIMARY KEY (app, identifier)
        );
        -- The scheduler's window across all apps (keyset paging by ScheduleKey order).
        CREATE INDEX pending_by_due ON pending (next_fire, app, identifier);
        -- One app's listing, in the same order.
        CREATE INDEX pending_by_app_due ON pending (app, next_fire, identifier);

        CREATE TABLE delivered (
          app TEXT NOT NULL CHECK (length(app) > 0),
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          delivered_at INTEGER NOT NULL,
          due INTEGER NOT NULL,
          missed INTEGER NOT NULL CHECK (missed IN (0, 1)),
          body BLOB NOT NULL,
          PRIMARY KEY (app, identifier)
        );
        -- One app's listing, newest first.
        CREATE INDEX delivered_by_app_time ON delivered (app, delivered_at DESC, identifier);

        -- AUTOINCREMENT: a cursor is never reused, even after the newest events are pruned.
        CREATE TABLE event (
          cursor INTEGER PRIMARY KEY AUTOINCREMENT,
          app TEXT NOT NULL CHECK (length(app) > 0),
          at INTEGER NOT NULL,
          kind INTEGER NOT NULL CHECK (kind > 0),
          body BLOB NOT NULL
        );
        CREATE INDEX event_by_app ON event (app, cursor);

        -- Per app, the highest cursor that retention pruned, and that event's instant.
        CREATE TABLE event_pruned (
          app TEXT NOT NULL PRIMARY KEY CHECK (length(app) > 0),
          through INTEGER NOT NULL CHECK (through > 0),
          at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE meta (
          key TEXT NOT NULL PRIMARY KEY,
          value NOT NULL
        ) WITHOUT ROWID;
        """)
    }
    migrator.registerMigration("v2: floating calendar triggers") { db in
      // 1 when the request's calendar trigger has no zone of its own and follows the daemon's:
      // those are re-planned when the zone changes.
      try db.execute(sql: """
        ALTER TABLE pending ADD COLUMN floating INTEGER NOT NULL DEFAULT 0 CHECK (floating IN (0, 1));
        CREATE INDEX pending_floating ON pending (app, identifier) WHERE floating = 1;
        """)
    }
    migrator.registerMigration("v3: apps and attachments") { db in
      // Registered app layouts. `groups` is a JSON array of paths, in search order.
      // Attachment files in the store, each held by one request lineage (app, identifier): by its
      // pending request, by its delivered notification, or both (a repeating request whose
      // delivered notification shows the same file). A row that neither holds is removed in the
      // same transaction and its file unlinked after the commit; the start-up sweep removes
      // files that no row names.
      try db.execute(sql: """
        CREATE TABLE app (
          id TEXT NOT NULL PRIMARY KEY CHECK (length(id) > 0),
          container TEXT NOT NULL,
          groups TEXT NOT NULL,
          bundle TEXT NOT NULL,
          registered_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE attachment (
          path TEXT NOT NULL PRIMARY KEY,
          app TEXT NOT NULL CHECK (length(app) > 0),
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          bytes INTEGER NOT NULL CHECK (bytes >= 0),
          in_pending INTEGER NOT NULL CHECK (in_pending IN (0, 1)),
          in_delivered INTEGER NOT NULL CHECK (in_delivered IN (0, 1))
        ) WITHOUT ROWID;
        CREATE INDEX attachment_by_owner ON attachment (app, identifier);
        """)
    }
    migrator.registerMigration("v4: categories") { db in
      // Each app's categories, replaced all at once (SetCategories). `position` keeps the order
      // they were given in; `body` is the category as protobuf (chime.v1.Category). A delivered
      // notification carries its own snapshot of its category, so nothing refers to these rows.
      try db.execute(sql: """
        CREATE TABLE category (
          app TEXT NOT NULL CHECK (length(app) > 0),
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          position INTEGER NOT NULL CHECK (position >= 0),
          body BLOB NOT NULL,
          PRIMARY KEY (app, identifier)
        ) WITHOUT ROWID;
        """)
    }
    migrator.registerMigration("v5: authorization and badge") { db in
      // Per app: the authorization status (AuthorizationStatus raw value), the permissions
      // granted (AuthorizationOptions bits; NULL until the app asked or the user set one) and
      // the badge count. A row exists once any of them was set.
      try db.execute(sql: """
        CREATE TABLE app_authorization (
          app TEXT NOT NULL PRIMARY KEY CHECK (length(app) > 0),
          status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 3),
          granted INTEGER CHECK (granted >= 0),
          badge_count INTEGER NOT NULL DEFAULT 0 CHECK (badge_count >= 0),
          changed_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """)
    }
    migrator.registerMigration("v6: pending count per app") { db in
      // How many pending requests each app holds, kept by triggers so that the per-app limit
      // costs one row read per add. An upsert that replaces a row runs no INSERT trigger.
      try db.execute(sql: """
        CREATE TABLE app_pending (
          app TEXT NOT NULL PRIMARY KEY,
          count INTEGER NOT NULL CHECK (count >= 0)
        ) WITHOUT ROWID;
        INSERT INTO app_pending (app, count) SELECT app, COUNT(*) FROM pending GROUP BY app;
        CREATE TRIGGER pending_counted_in AFTER INSERT ON pending BEGIN
          INSERT INTO app_pending (app, count) VALUES (NEW.app, 1)
            ON CONFLICT (app) DO UPDATE SET count = count + 1;
        END;
        CREATE TRIGGER pending_counted_out AFTER DELETE ON pending BEGIN
          UPDATE app_pending SET count = count - 1 WHERE app = OLD.app;
        END;
        """)
    }
    migrator.registerMigration("v7: app display name and desktop entry") { db in
      // What the desktop shows for the app (empty: its id) and its .desktop file id.
      try db.execute(sql: """
        ALTER TABLE app ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE app ADD COLUMN desktop_entry TEXT NOT NULL DEFAULT '';
        """)
    }
    migrator.registerMigration("v8: event log without AUTOINCREMENT or a per-app index") { db in
      // Two fewer b-trees written by every add and fire: the AUTOINCREMENT sequence row and
      // `event_by_app`. With them a lone add's commit wrote about nine WAL frames; a frame less
      // is a page less to update, checksum and sync.
      // - Cursors are still never reused: each event's is one past both the largest stored and
      //   the largest retention recorded as pruned (`insertEvent`). The old sequence, should
      //   it have run ahead of the stored events, is recorded as pruned here.
      // - One app's events are read by cursor range (`cursor > ?`), the app tested on each row:
      //   a subscriber near the head reads a few rows; one far behind reads at most the
      //   retained log once per page.
      try db.execute(sql: """
        CREATE TABLE event_v8 (
          cursor INTEGER PRIMARY KEY,
          app TEXT NOT NULL CHECK (length(app) > 0),
          at INTEGER NOT NULL,
          kind INTEGER NOT NULL CHECK (kind > 0),
          body BLOB NOT NULL
        );
        INSERT INTO event_v8 (cursor, app, at, kind, body) SELECT cursor, app, at, kind, body FROM event ORDER BY cursor;
        INSERT INTO meta (key, value)
          SELECT ?, seq FROM sqlite_sequence
          WHERE name = 'event' AND seq > COALESCE((SELECT MAX(cursor) FROM event), 0)
          ON CONFLICT (key) DO UPDATE SET value = MAX(value, excluded.value);
        DROP TABLE event;
        ALTER TABLE event_v8 RENAME TO event;
        """, arguments: [MetaKey.eventPrunedThrough])
    }
    migrator.registerMigration("v9: do not disturb") { db in
      // The user's Do Not Disturb setting: one row (id 1) once it was first set. Manual: on
      // (0/1) and until (unix ms; NULL: until switched off). Schedule: NULL start when none;
      // minutes after midnight and a weekday mask (bit 0 Monday ... bit 6 Sunday).
      try db.execute(sql: """
        CREATE TABLE do_not_disturb (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          manual_on INTEGER NOT NULL CHECK (manual_on IN (0, 1)),
          manual_until INTEGER,
          schedule_start INTEGER CHECK (schedule_start BETWEEN 0 AND 1439),
          schedule_end INTEGER CHECK (schedule_end BETWEEN 0 AND 1439),
          schedule_days INTEGER CHECK (schedule_days BETWEEN 1 AND 127),
          changed_at INTEGER NOT NULL
        );
        """)
    }
    migrator.registerMigration("v10: do not disturb follows the desktop and summarizes") { db in
      // Whether the desktop's own Do Not Disturb counts and whether a summary is shown when it
      // ends (0/1, both on by default), and the instant through which quiet deliveries were
      // summarized (unix ms): the next summary counts the delivered_quietly rows after it.
      try db.execute(sql: """
        ALTER TABLE do_not_disturb ADD COLUMN follow_desktop INTEGER NOT NULL DEFAULT 1 CHECK (follow_desktop IN (0, 1));
        ALTER TABLE do_not_disturb ADD COLUMN summary INTEGER NOT NULL DEFAULT 1 CHECK (summary IN (0, 1));
        ALTER TABLE do_not_disturb ADD COLUMN summarized_through INTEGER NOT NULL DEFAULT 0;
        """)
    }
    migrator.registerMigration("v11: snoozed notifications") { db in
      // Delivered notifications the user snoozed, one per (app, identifier): `body` is the
      // DeliveredNotification as it was delivered (chime.v1.DeliveredNotification), `until`
      // when it is delivered again (unix ms) with `snooze_count`, `snoozed_at` when it was
      // snoozed. The scheduler reads `snoozed_by_due` beside `pending_by_due`; one app's
      // listing (GetPending) reads `snoozed_by_app_due` after its pending requests.
      // Attachment files: `in_snoozed` holds a lineage's files while it is snoozed.
      try db.execute(sql: """
        CREATE TABLE snoozed (
          app TEXT NOT NULL CHECK (length(app) > 0),
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          until INTEGER NOT NULL,
          snoozed_at INTEGER NOT NULL,
          snooze_count INTEGER NOT NULL CHECK (snooze_count > 0),
          body BLOB NOT NULL,
          PRIMARY KEY (app, identifier)
        );
        CREATE INDEX snoozed_by_due ON snoozed (until, app, identifier);
        CREATE INDEX snoozed_by_app_due ON snoozed (app, until, identifier);
        ALTER TABLE attachment ADD COLUMN in_snoozed INTEGER NOT NULL DEFAULT 0 CHECK (in_snoozed IN (0, 1));
        """)
    }
    migrator.registerMigration("v12: quiet deliveries marked until summarized") { db in
      // 1 on a delivered row made quietly (Do Not Disturb) and not yet counted in a summary:
      // the summary counts and clears these rows, not those after an instant, so a clock set
      // back (or two deliveries in the summary's millisecond) cannot hide one from it.
      // `do_not_disturb.summarized_through` is no longer read. Rows already delivered are
      // marked as that instant left them: quiet ones after it.
      try db.execute(sql: """
        ALTER TABLE delivered ADD COLUMN quiet_unsummarized INTEGER NOT NULL DEFAULT 0 CHECK (quiet_unsummarized IN (0, 1));
        CREATE INDEX delivered_quiet_unsummarized ON delivered (app) WHERE quiet_unsummarized = 1;
        """)
      let since = try Int64.fetchOne(db, sql: "SELECT summarized_through FROM do_not_disturb WHERE id = 1") ?? 0
      let codec = RecordCodec()
      var quiet: [Int64] = []
      // Only bodies holding `delivered_quietly = true` (field 11: the bytes 58 01) are decoded.
      let rows = try Row.fetchCursor(db.makeStatement(sql: """
        SELECT rowid, body FROM delivered WHERE delivered_at > ? AND instr(body, X'5801') > 0
        """), arguments: [since])
      while let row = try rows.next() {
        let body: [UInt8] = try row.decode(atIndex: 1)
        if (try? codec.decode(DeliveredNotification.self, from: body))?.quiet == true { quiet.append(try row.decode(atIndex: 0)) }
      }
      let mark = try db.makeStatement(sql: "UPDATE delivered SET quiet_unsummarized = 1 WHERE rowid = ?")
      for rowid in quiet { try mark.execute(arguments: [rowid]) }
    }
    migrator.registerMigration("v13: calendar sources") { db in
      // Registered calendars (issue 41): a vdir directory or one .ics file whose alarms are
      // pending requests of the app `app`. `last_scan` is when a scan last committed (unix ms,
      // NULL before the first); `planned_until` the end of the window its alarms were planned
      // for (unix ms): later ones are planned as time reaches it.
      // `calendar_file`: each file of a calendar at its last scan, with the error that skipped
      // it (NULL: read as an item) and how many alarms it has scheduled now.
      // `calendar_alarm`: which pending requests of the calendar's app came from which file, and
      // when each is due, so a file's rescan withdraws and adds only what changed. A row
      // outlives its pending request once that fires; the file's next scan drops it. Removing
      // a calendar deletes its rows here (foreign keys are not enforced in this store).
      try db.execute(sql: """
        CREATE TABLE calendar_source (
          name TEXT NOT NULL PRIMARY KEY CHECK (length(name) > 0),
          path TEXT NOT NULL CHECK (length(path) > 0),
          app TEXT NOT NULL UNIQUE CHECK (length(app) > 0),
          added INTEGER NOT NULL,
          last_scan INTEGER,
          planned_until INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;

        CREATE TABLE calendar_file (
          source TEXT NOT NULL,
          file TEXT NOT NULL CHECK (length(file) > 0),
          error TEXT,
          alarms INTEGER NOT NULL DEFAULT 0 CHECK (alarms >= 0),
          PRIMARY KEY (source, file)
        ) WITHOUT ROWID;

        CREATE TABLE calendar_alarm (
          source TEXT NOT NULL,
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          file TEXT NOT NULL,
          at INTEGER NOT NULL,
          PRIMARY KEY (source, identifier)
        ) WITHOUT ROWID;
        CREATE INDEX calendar_alarm_by_file ON calendar_alarm (source, file);
        """)
    }
    migrator.registerMigration("v14: calendar write-back") { db in
      // What the user does with a calendar alarm is written into its item (RFC 9074). A
      // `calendar_alarm` row now says which alarm of the file it is, as the planner names it:
      // `uid`, `recurrence` (`CalendarScanLine.recurrence`: empty, `i<unix ms>` or `d<wall
      // seconds>`) and `repeat_index` (its `at` is the instant). Rows stay while their request
      // is pending, delivered or snoozed, and a day after, so a dismissal finds what to write.
      // Rows from v13 have an empty uid: their next scan fills it in.
      // `calendar_file.write_error`: why the last write-back into the file failed (NULL: it did
      // not), listed with the file's read error; a scan leaves it alone.
      try db.execute(sql: """
        ALTER TABLE calendar_alarm ADD COLUMN uid TEXT NOT NULL DEFAULT '';
        ALTER TABLE calendar_alarm ADD COLUMN recurrence TEXT NOT NULL DEFAULT '';
        ALTER TABLE calendar_alarm ADD COLUMN repeat_index INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE calendar_file ADD COLUMN write_error TEXT;
        """)
    }
    migrator.registerMigration("v15: calendar write-back queue") { db in
      // Dismissals and snoozes of calendar alarms waiting to be written into their items,
      // queued in the transaction that commits them (`WriteTransaction.append`) and deleted once
      // written (or found unwritable): one committed and not yet written when chimed was killed
      // is written at the next start. `snooze_until` is unix ms, NULL for a dismissal.
      try db.execute(sql: """
        CREATE TABLE calendar_write_back (
          seq INTEGER PRIMARY KEY,
          source TEXT NOT NULL,
          identifier TEXT NOT NULL CHECK (length(identifier) > 0),
          snooze_until INTEGER
        );
        CREATE INDEX calendar_write_back_by_source ON calendar_write_back (source, seq);
        """)
    }
    migrator.registerMigration("v16: pending counts kept by the writer") { db in
      // `app_pending` is now kept by the write transaction (`WriteTransaction.countPending`),
      // one upsert per app per commit, instead of by a trigger per inserted or deleted row: the
      // trigger's sub-program was 12,000 instructions of each add, more than a third of the
      // insert it followed (callgrind), and a batch of 32 adds for one app ran it 32 times.
      // The counts the triggers kept stay as they are.
      try db.execute(sql: """
        DROP TRIGGER pending_counted_in;
        DROP TRIGGER pending_counted_out;
        """)
    }
    return migrator
  }()
}

/// Keys of the `meta` table.
enum MetaKey {
  /// Highest event cursor pruned by retention, across all apps.
  static let eventPrunedThrough = "event_pruned_through"
}
