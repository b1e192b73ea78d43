/*
 * libchime-client: the C client for chimed, the Chime notification scheduler daemon.
 *
 * It speaks the chime.v1 protocol (Protos/chime/v1) over the daemon's Unix socket. Every
 * type here is opaque and read through accessors, so the library's ABI does not change when
 * the protocol gains fields; <chime/chime-proto.h> is the opt-in raw protobuf-c access.
 *
 *   chime_error *err = chime_error_new();
 *   chime_client *chime;
 *   if (chime_connect(&chime, NULL, "org.example.app", err) != CHIME_OK) {
 *     fprintf(stderr, "%s: %s\n", chime_error_reason(err), chime_error_message(err));
 *     ...
 *   }
 *   chime_add_interval(chime, "tea", "Tea", "Ready", 180, false, NULL, err);
 *   chime_close(chime);
 *   chime_error_free(err);
 *
 * ERRORS: every call returns its status code (CHIME_OK, 0, on success) and, when `error` is
 * not NULL, sets it: cleared on success, else the code, the daemon's stable reason (e.g.
 * "INVALID_INTERVAL"), a message and the offending field path. The client's own failures use
 * the same codes with the reasons DAEMON_UNAVAILABLE, CONNECTION_CLOSED, DEADLINE_EXCEEDED,
 * FRAME_TOO_LARGE, MALFORMED_REPLY, INVALID_ARGUMENT, SOCKET_PATH_TOO_LONG, OUT_OF_MEMORY,
 * QUEUE_FULL and CANCELLED. One chime_error can serve every call of a thread.
 *
 * OWNERSHIP:
 *   - Arguments are borrowed: the library never keeps or frees what you pass in.
 *   - An object returned through an out-parameter (chime_notification **out and so on) is
 *     the caller's on CHIME_OK (on failure *out is NULL): free it with its type's _free.
 *   - What an accessor returns (strings, list items, an event's notification) is borrowed
 *     from the object it was read from and lives as long as that object. Accessors never
 *     return NULL strings ("" when unset) and accept a NULL object; an _at past the end
 *     gives NULL (or "" for strings).
 *   - Callbacks (chime_subscribe, chime_register_*_extension) borrow their event: it is freed
 *     when the callback returns.
 *
 * DEADLINES: every unary call waits at most the client's timeout (chime_set_timeout_ms); the
 * deadline travels in the call frame and is enforced here with poll(2) (DEADLINE_EXCEEDED).
 *
 * THREADS: a chime_client makes one call at a time and is not thread-safe; use one per
 * thread or a lock around it. Writes use MSG_NOSIGNAL: a daemon that goes away is an error,
 * never a SIGPIPE.
 */
#ifndef CHIME_CHIME_H
#define CHIME_CHIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes and errors ------------------------------------------------------------ */

/* gRPC canonical status codes, as carried by chime.v1.Status. */
enum chime_code {
  CHIME_OK = 0,
  CHIME_CANCELLED = 1,
  CHIME_UNKNOWN = 2,
  CHIME_INVALID_ARGUMENT = 3,
  CHIME_DEADLINE_EXCEEDED = 4,
  CHIME_NOT_FOUND = 5,
  CHIME_ALREADY_EXISTS = 6,
  CHIME_PERMISSION_DENIED = 7,
  CHIME_RESOURCE_EXHAUSTED = 8,
  CHIME_FAILED_PRECONDITION = 9,
  CHIME_ABORTED = 10,
  CHIME_OUT_OF_RANGE = 11,
  CHIME_UNIMPLEMENTED = 12,
  CHIME_INTERNAL = 13,
  CHIME_UNAVAILABLE = 14,
  CHIME_DATA_LOSS = 15,
  CHIME_UNAUTHENTICATED = 16,
};

/* "INVALID_ARGUMENT" and so on; a code outside 0...16 gives "UNKNOWN_CODE". */
const char *chime_code_name(int code);

typedef struct chime_error chime_error;
/* A cleared error (code CHIME_OK), or NULL when out of memory (a NULL error is ignored). */
chime_error *chime_error_new(void);
void chime_error_free(chime_error *error);
int chime_error_code(const chime_error *error);
const char *chime_error_reason(const chime_error *error);  /* stable identifier, "" when OK */
const char *chime_error_message(const chime_error *error); /* human-readable */
const char *chime_error_field(const chime_error *error);   /* path of the field at fault, or "" */

/* ---- the client -------------------------------------------------------------------------- */

typedef struct chime_client chime_client;

/*
 * The daemon's default socket, resolved as chimed resolves it: $CHIME_SOCKET, else
 * $XDG_RUNTIME_DIR/chime/chimed.sock, else /tmp/chime-<uid>/chimed.sock. Writes it to `buf`
 * and returns `buf`, or NULL when it does not fit in `size` bytes.
 */
const char *chime_default_socket_path(char *buf, size_t size);

/* Connects to chimed (socket_path NULL: the default) acting for `app_id` (reverse DNS). On
 * success *out is a client to free with chime_close; on failure *out is NULL. */
int chime_connect(chime_client **out, const char *socket_path, const char *app_id, chime_error *error);
void chime_close(chime_client *client); /* NULL is ignored */

/* How long each following call waits for its answer, in ms (default 30000; negative: forever).
 * A call that times out is cancelled and the connection stays usable (a reply frame half read
 * is kept and finished by the next read). */
void chime_set_timeout_ms(chime_client *client, int timeout_ms);

/*
 * Any unary call, as bytes: `method` is a NotificationCenter method ("GetDelivered") or a
 * full path; `payload` the serialized request. On success *reply (free(); NULL when empty)
 * holds the serialized response.
 */
int chime_call(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
               uint8_t **reply, size_t *reply_len, chime_error *error);

/* ---- building a notification request ----------------------------------------------------- */

typedef struct chime_request chime_request;

/* A request with no content and no trigger (delivered at once); NULL when out of memory. Every
 * setter returns CHIME_OK, or an error code that chime_add reports again (OUT_OF_MEMORY,
 * INVALID_ARGUMENT), so setters may be called without checking each. */
chime_request *chime_request_new(const char *identifier);
void chime_request_free(chime_request *request);

int chime_request_set_title(chime_request *request, const char *title);
int chime_request_set_subtitle(chime_request *request, const char *subtitle);
int chime_request_set_body(chime_request *request, const char *body);
int chime_request_set_category(chime_request *request, const char *category_identifier);
int chime_request_set_thread(chime_request *request, const char *thread_identifier);
int chime_request_set_user_info_json(chime_request *request, const char *json_object);
int chime_request_set_badge(chime_request *request, int64_t badge);
int chime_request_set_relevance_score(chime_request *request, double score);

enum chime_interruption_level {
  CHIME_INTERRUPTION_PASSIVE = 1,
  CHIME_INTERRUPTION_ACTIVE = 2, /* the default */
  CHIME_INTERRUPTION_TIME_SENSITIVE = 3,
  CHIME_INTERRUPTION_CRITICAL = 4,
};
int chime_request_set_interruption_level(chime_request *request, int level);

enum chime_sound_kind {
  CHIME_SOUND_NONE = 1,
  CHIME_SOUND_DEFAULT = 2,
  CHIME_SOUND_NAMED = 3, /* name: a file under the app's or the user's Sounds */
  CHIME_SOUND_DEFAULT_CRITICAL = 4,
  CHIME_SOUND_CRITICAL_NAMED = 5,
};
/* Without a sound the notification is silent. `name` may be NULL for the unnamed kinds. */
int chime_request_set_sound(chime_request *request, int kind, const char *name);
int chime_request_set_sound_volume(chime_request *request, double volume); /* critical: 0...1 */
/* An alarm: once delivered, the sound repeats until the notification is answered, dismissed or
 * removed, for at most `seconds` (5...1800; INVALID_RING otherwise, or when the sound is
 * CHIME_SOUND_NONE). Without a sound the default sound rings. */
int chime_request_set_ring(chime_request *request, uint32_t seconds);
/* After chime_request_set_ring: when the ring runs out unanswered, the notification is snoozed
 * (by its category's first snooze duration, else 10 minutes) and rings again when it comes
 * back, while it has been snoozed fewer than `times` times (0...10; INVALID_RING above).
 * CHIME_INVALID_ARGUMENT without a ring. */
int chime_request_set_ring_auto_snooze(chime_request *request, uint32_t times);

/* Attaches the file at `path` (absolute; moved into the daemon's store when accepted, copied
 * when inside the app's bundle). `identifier` NULL: the daemon picks; `type_hint` a UTI or
 * NULL. Attachments are numbered from 0 in the order added. */
int chime_request_add_attachment(chime_request *request, const char *identifier, const char *path,
                                 const char *type_hint);
int chime_request_set_attachment_thumbnail_hidden(chime_request *request, size_t index, bool hidden);
int chime_request_set_attachment_clip(chime_request *request, size_t index, double x, double y, double width,
                                      double height); /* unit rectangle of the thumbnail */
int chime_request_set_attachment_thumbnail_time(chime_request *request, size_t index, double seconds);

/* Triggers. A time interval (repeating every `seconds`; the daemon then requires >= 60): */
int chime_request_set_interval(chime_request *request, double seconds, bool repeats);
/* A calendar trigger matching the components set with chime_request_set_date_component;
 * time_zone an IANA name, NULL for the daemon's zone. */
int chime_request_set_calendar(chime_request *request, const char *time_zone, bool repeats);
enum chime_date_component {
  CHIME_YEAR, CHIME_MONTH, CHIME_DAY, CHIME_HOUR, CHIME_MINUTE, CHIME_SECOND, CHIME_WEEKDAY,
  CHIME_WEEKDAY_ORDINAL, CHIME_WEEK_OF_MONTH, CHIME_WEEK_OF_YEAR, CHIME_YEAR_FOR_WEEK_OF_YEAR,
};
/* Sets one component of the calendar trigger (making the trigger a calendar one if it was not). */
int chime_request_set_date_component(chime_request *request, int component, int32_t value);
/* A set of weekdays for the calendar trigger (1 = Sunday ... 7 = Saturday), any of which
 * matches: {2, 3, 4, 5, 6} is Monday to Friday. Copies `weekdays`; count 0 clears the set. */
int chime_request_set_weekdays(chime_request *request, const int32_t *weekdays, size_t count);
/* Ends a repeating interval or calendar trigger: no fire after `until_unix_ms` (0: none), at
 * most `count` fires (0: no limit). Set the trigger first. */
int chime_request_set_end(chime_request *request, int64_t until_unix_ms, uint32_t count);
/* An RFC 5545 recurrence rule ("FREQ=MONTHLY;BYDAY=-1FR") from `start`, a local wall time
 * ("2026-12-01T17:00"), in `time_zone` (an IANA name; NULL or "" for the daemon's zone). */
int chime_request_set_recurrence(chime_request *request, const char *rule, const char *start, const char *time_zone);
/* A local wall time the recurrence rule skips (it still counts towards COUNT). */
int chime_request_add_exclusion(chime_request *request, const char *local_time);

/* ---- notifications: pending, delivered, or a request an extension is given ---------------- */

typedef struct chime_notification chime_notification;

enum chime_notification_state { CHIME_STATE_REQUEST = 0, CHIME_STATE_PENDING = 1, CHIME_STATE_DELIVERED = 2 };
enum chime_trigger_kind {
  CHIME_TRIGGER_NONE = 0, CHIME_TRIGGER_INTERVAL = 1, CHIME_TRIGGER_CALENDAR = 2, CHIME_TRIGGER_RECURRENCE = 3
};

/* Frees a notification returned through an out-parameter; one borrowed from a list or an
 * event is left alone. */
void chime_notification_free(chime_notification *notification);
int chime_notification_state(const chime_notification *notification);
/* An add or push result: whether it replaced the app's earlier request of that identifier. */
bool chime_notification_replaced(const chime_notification *notification);
const char *chime_notification_identifier(const chime_notification *notification);
const char *chime_notification_title(const chime_notification *notification);
const char *chime_notification_subtitle(const chime_notification *notification);
const char *chime_notification_body(const chime_notification *notification);
const char *chime_notification_category(const chime_notification *notification);
const char *chime_notification_thread(const chime_notification *notification);
const char *chime_notification_user_info_json(const chime_notification *notification);
bool chime_notification_has_badge(const chime_notification *notification);
int64_t chime_notification_badge(const chime_notification *notification);
int chime_notification_trigger_kind(const chime_notification *notification);
double chime_notification_interval_seconds(const chime_notification *notification); /* 0 unless INTERVAL */
bool chime_notification_repeats(const chime_notification *notification);
/* Pending: */
int64_t chime_notification_next_fire_unix_ms(const chime_notification *notification);
int64_t chime_notification_added_unix_ms(const chime_notification *notification);
uint64_t chime_notification_fire_count(const chime_notification *notification);
/* Delivered: */
int64_t chime_notification_delivered_unix_ms(const chime_notification *notification);
int64_t chime_notification_due_unix_ms(const chime_notification *notification);
bool chime_notification_missed(const chime_notification *notification);
/* A delivered notification: how many times it was snoozed before this delivery. A pending
 * entry: > 0 when it is a snoozed notification (next fire: when it comes back). */
uint32_t chime_notification_snooze_count(const chime_notification *notification);
/* How a pushed notification's content came about ("original", "extension", ...) and from
 * which service extension; "" when not pushed. */
const char *chime_notification_push_content(const chime_notification *notification);
const char *chime_notification_push_extension(const chime_notification *notification);
/* What its sound resolved to ("default", "named", ...) and why when it is not the one asked. */
const char *chime_notification_sound_plays(const chime_notification *notification);
const char *chime_notification_sound_reason(const chime_notification *notification);
/* Attachments (as stored by the daemon once accepted). */
size_t chime_notification_attachment_count(const chime_notification *notification);
const char *chime_notification_attachment_identifier(const chime_notification *notification, size_t index);
const char *chime_notification_attachment_type(const chime_notification *notification, size_t index); /* UTI */
const char *chime_notification_attachment_path(const chime_notification *notification, size_t index);
bool chime_notification_attachment_thumbnail_hidden(const chime_notification *notification, size_t index);

/* ---- lists ------------------------------------------------------------------------------- */

typedef struct chime_notification_list chime_notification_list;
size_t chime_notification_list_count(const chime_notification_list *list);
const chime_notification *chime_notification_list_at(const chime_notification_list *list, size_t index);
/* The token of the next page ("" on the last page, and for whole lists). */
const char *chime_notification_list_next_page_token(const chime_notification_list *list);
void chime_notification_list_free(chime_notification_list *list);

typedef struct chime_id_list chime_id_list;
size_t chime_id_list_count(const chime_id_list *list);
const char *chime_id_list_at(const chime_id_list *list, size_t index);
void chime_id_list_free(chime_id_list *list);

/* Fire dates, as chime_next_trigger_dates gives them. */
typedef struct chime_date_list chime_date_list;
size_t chime_date_list_count(const chime_date_list *list);
int64_t chime_date_list_unix_ms(const chime_date_list *list, size_t index);
const char *chime_date_list_time_zone(const chime_date_list *list, size_t index);
int32_t chime_date_list_utc_offset_seconds(const chime_date_list *list, size_t index);
const char *chime_date_list_dst_note(const chime_date_list *list, size_t index);
void chime_date_list_free(chime_date_list *list);

/* ---- scheduling and the lists of pending and delivered ------------------------------------ */

/* Add (UNUserNotificationCenter.add): the same identifier replaces the app's earlier request.
 * *out (may be NULL) is the pending request as scheduled, or the delivered notification. */
int chime_add(chime_client *client, const chime_request *request, chime_notification **out, chime_error *error);
/* Shorthands: a time interval (`next_fire_unix_ms` may be NULL), and "deliver now" in a
 * category (NULL or "" for none) so that it can be answered with chime_respond. NULL title
 * or body: "". */
int chime_add_interval(chime_client *client, const char *identifier, const char *title, const char *body,
                       double seconds, bool repeats, int64_t *next_fire_unix_ms, chime_error *error);
int chime_add_now(chime_client *client, const char *identifier, const char *title, const char *body,
                  const char *category_identifier, chime_error *error);

/* All of the app's pending requests or delivered notifications (every page), or one page
 * (page_size 0: the daemon's default; page_token NULL: the first). */
int chime_pending(chime_client *client, chime_notification_list **out, chime_error *error);
int chime_pending_page(chime_client *client, uint32_t page_size, const char *page_token,
                       chime_notification_list **out, chime_error *error);
int chime_delivered(chime_client *client, chime_notification_list **out, chime_error *error);
int chime_delivered_page(chime_client *client, uint32_t page_size, const char *page_token,
                         chime_notification_list **out, chime_error *error);

/* Removal by identifier, or of all; `removed` (may be NULL) gets the identifiers that existed. */
int chime_remove(chime_client *client, const char *const *identifiers, size_t count, chime_id_list **removed,
                 chime_error *error);
int chime_remove_all(chime_client *client, chime_id_list **removed, chime_error *error);
int chime_remove_delivered(chime_client *client, const char *const *identifiers, size_t count,
                           chime_id_list **removed, chime_error *error);
int chime_remove_all_delivered(chime_client *client, chime_id_list **removed, chime_error *error);

/* Snooze: the delivered notification `identifier` leaves the screen and the delivered list and
 * is delivered again after `seconds` (60 ... 604800) with its snooze count one higher. *out
 * (may be NULL) is its snoozed entry as chime_pending lists it meanwhile (snooze count > 0,
 * next fire: its return). Removing the identifier (chime_remove, chime_remove_delivered)
 * cancels it. Fails INVALID_ARGUMENT INVALID_SNOOZE_DURATION, NOT_FOUND
 * NOTIFICATION_NOT_DELIVERED. */
int chime_snooze(chime_client *client, const char *identifier, int64_t seconds, chime_notification **out,
                 chime_error *error);

/* NextTriggerDates: the next `count` fire dates of `request`'s trigger after `after_unix_ms`
 * (0: now). */
int chime_next_trigger_dates(chime_client *client, const chime_request *request, int64_t after_unix_ms,
                             uint32_t count, chime_date_list **out, chime_error *error);

/* ---- categories and responses (UNNotificationCategory / UNNotificationAction) ------------- */

typedef struct chime_category chime_category;
typedef struct chime_category_list chime_category_list;

#define CHIME_ACTION_AUTHENTICATION_REQUIRED 0x1u
#define CHIME_ACTION_DESTRUCTIVE 0x2u
#define CHIME_ACTION_FOREGROUND 0x4u
#define CHIME_CATEGORY_CUSTOM_DISMISS_ACTION 0x1u
#define CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE 0x2u
#define CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE 0x4u
/* The actions of a response that opened or dismissed a notification. */
#define CHIME_DEFAULT_ACTION "chime.default"
#define CHIME_DISMISS_ACTION "chime.dismiss"
#define CHIME_SNOOZE_ACTION "chime.snooze" /* a snooze button: chime_respond_snooze */

/* A category to set; NULL when out of memory. Setters return codes as chime_request's do. */
chime_category *chime_category_new(const char *identifier);
void chime_category_free(chime_category *category); /* one borrowed from a list is left alone */
int chime_category_set_options(chime_category *category, unsigned options); /* CHIME_CATEGORY_* */
/* Appends an action (options: CHIME_ACTION_*); actions are numbered from 0 in this order. */
int chime_category_add_action(chime_category *category, const char *identifier, const char *title, unsigned options);
int chime_category_set_action_icon(chime_category *category, size_t index, const char *icon);
int chime_category_set_action_text_input(chime_category *category, size_t index, const char *button_title,
                                         const char *placeholder);
int chime_category_add_intent(chime_category *category, const char *intent_identifier);
int chime_category_set_hidden_previews_body_placeholder(chime_category *category, const char *placeholder);
int chime_category_set_summary_format(chime_category *category, const char *format);
/* Appends a snooze duration offered as a button after the actions (60 ... 604800 seconds, at
 * most 5; chimed refuses others with INVALID_SNOOZE_DURATION or TOO_MANY_SNOOZE_DURATIONS). */
int chime_category_add_snooze(chime_category *category, int64_t seconds);

const char *chime_category_identifier(const chime_category *category);
unsigned chime_category_options(const chime_category *category);
size_t chime_category_action_count(const chime_category *category);
const char *chime_category_action_identifier(const chime_category *category, size_t index);
const char *chime_category_action_title(const chime_category *category, size_t index);
unsigned chime_category_action_options(const chime_category *category, size_t index);
const char *chime_category_action_icon(const chime_category *category, size_t index);
bool chime_category_action_has_text_input(const chime_category *category, size_t index);
const char *chime_category_action_text_input_button_title(const chime_category *category, size_t index);
const char *chime_category_action_text_input_placeholder(const chime_category *category, size_t index);
size_t chime_category_intent_count(const chime_category *category);
const char *chime_category_intent_at(const chime_category *category, size_t index);
const char *chime_category_hidden_previews_body_placeholder(const chime_category *category);
const char *chime_category_summary_format(const chime_category *category);
size_t chime_category_snooze_count(const chime_category *category);
int64_t chime_category_snooze_at(const chime_category *category, size_t index); /* seconds */

size_t chime_category_list_count(const chime_category_list *list);
const chime_category *chime_category_list_at(const chime_category_list *list, size_t index);
void chime_category_list_free(chime_category_list *list);

/* Replaces all of the app's categories (count 0 removes them). A refusal names its field,
 * e.g. DUPLICATE_ACTION_IDENTIFIER at "categories[0].actions[2].identifier". */
int chime_set_categories(chime_client *client, const chime_category *const *categories, size_t count,
                         chime_error *error);
/* The app's categories, in the order they were set. */
int chime_categories(chime_client *client, chime_category_list **out, chime_error *error);

/*
 * Answers the delivered notification `identifier`: `action` NULL or CHIME_DEFAULT_ACTION
 * (opened), CHIME_DISMISS_ACTION, or an action of its category; `text` (NULL: none) for a
 * text-input action. `removed` (may be NULL): it left the delivered list. Refusals: NOT_FOUND
 * NOTIFICATION_NOT_DELIVERED; INVALID_ARGUMENT UNKNOWN_ACTION, TEXT_REQUIRED,
 * TEXT_NOT_ACCEPTED; FAILED_PRECONDITION DISMISS_NOT_ENABLED.
 */
int chime_respond(chime_client *client, const char *identifier, const char *action, const char *text, bool *removed,
                  chime_error *error);
/* The user chose a snooze button of the notification's category (CHIME_SNOOZE_ACTION with
 * `seconds`, one of the category's durations): routed like chime_respond, then snoozed unless a
 * content extension handled it. Fails also INVALID_ARGUMENT SNOOZE_NOT_OFFERED. */
int chime_respond_snooze(chime_client *client, const char *identifier, int64_t seconds, bool *removed, chime_error *error);

/* ---- streams: events and extensions ------------------------------------------------------ */

typedef struct chime_event chime_event;

enum chime_event_kind {
  CHIME_EVENT_DELIVERED = 1,
  CHIME_EVENT_PENDING_ADDED = 2,
  CHIME_EVENT_PENDING_REPLACED = 3,
  CHIME_EVENT_PENDING_REMOVED = 4,
  CHIME_EVENT_DELIVERED_REMOVED = 5,
  CHIME_EVENT_MISSED_SKIPPED = 6,
  CHIME_EVENT_RESPONSE = 7,
  CHIME_EVENT_EVENTS_LOST = 8,
  CHIME_EVENT_SUBSCRIBED = 9, /* the stream is live */
  CHIME_EVENT_BADGE_CHANGED = 10,
  CHIME_EVENT_PRESENTATION_FAILED = 11,
  CHIME_EVENT_PENDING_FINISHED = 12, /* a repeating request's last fire: it left the pending list */
  CHIME_EVENT_SNOOZED = 13,          /* a delivered notification was snoozed: the event's notification is its entry */
  CHIME_EVENT_RING_ENDED = 14,       /* a ring stopped; the note says why: answered, dismissed, removed, timed-out */
  CHIME_EVENT_AUTHORIZATION_CHANGED = 15, /* the user allowed or denied the app; the note is "authorized" or "denied" */
};
int chime_event_kind(const chime_event *event);
uint64_t chime_event_cursor(const chime_event *event); /* resume after it with chime_subscribe */
int64_t chime_event_at_unix_ms(const chime_event *event);
size_t chime_event_identifier_count(const chime_event *event);
const char *chime_event_identifier_at(const chime_event *event, size_t index);
/* The delivered notification or pending request the event is about, or NULL. */
const chime_notification *chime_event_notification(const chime_event *event);
const char *chime_event_response_action(const chime_event *event); /* RESPONSE events */
const char *chime_event_response_text(const chime_event *event);
const char *chime_event_note(const chime_event *event);
int64_t chime_event_badge_count(const chime_event *event); /* BADGE_CHANGED events */

/*
 * Subscribe: streams the app's events to `callback` on a connection of its own (to the
 * client's socket, for the client's app), blocking until one of:
 *   - the callback returns non-zero: returns CHIME_OK;
 *   - chime_subscribe_stop(client) is called (another thread, a signal handler): returns
 *     CHIME_CANCELLED, reason CANCELLED;
 *   - the stream ends (the daemon shuts down, or refuses): its status.
 * `after_cursor` NULL: new events only (starting with CHIME_EVENT_SUBSCRIBED once live); else
 * the cursor of the last event handled: the stored events after it come first. The client's
 * timeout does not apply. Other threads may use the same client for unary calls meanwhile
 * under their own lock: the stream touches nothing of the client but its stop signal.
 */
typedef int (*chime_event_callback)(const chime_event *event, void *context);
int chime_subscribe(chime_client *client, const uint64_t *after_cursor, chime_event_callback callback, void *context,
                    chime_error *error);
/* Makes a running chime_subscribe / chime_register_*_extension of `client` return. Thread- and
 * async-signal-safe. A stop sent while none runs makes the next one return at once. */
void chime_subscribe_stop(chime_client *client);

/* ---- on an application's event loop (GLib, libuv, epoll): no threads, no blocking -------- */

/*
 * A client can be driven by the application's loop, as sd-bus and libcurl's multi interface
 * are: watch chime_get_fd for chime_get_events, wake by chime_get_timeout, and call
 * chime_process when either fires. The *_start calls only queue their frame; chime_process
 * writes it, reads what has arrived and calls the callbacks. Calls, subscriptions and the
 * blocking calls share the client's one connection: a blocking call made meanwhile (even from a
 * callback) also dispatches what arrives for the others. Callbacks run only inside
 * chime_process or a blocking call of the same client; they may start and cancel calls, but
 * must not chime_close the client. A blocking call made from a callback dispatches too, so the
 * stream's next events may reach their callback (nested) before it returns.
 */
typedef struct chime_subscription chime_subscription;

/* The connection's descriptor (stable for the client's life), or -1 for NULL. */
int chime_get_fd(const chime_client *client);
/* What to wait for on it: POLLIN, plus POLLOUT while frames are queued (<poll.h> values);
 * 0 once the connection is broken (chime_process then reports why). */
int chime_get_events(const chime_client *client);
/* The next deadline of an asynchronous call, as CLOCK_MONOTONIC microseconds (call
 * chime_process at or after it), or UINT64_MAX when there is none. CHIME_OK, or
 * CHIME_INVALID_ARGUMENT for NULL. */
int chime_get_timeout(const chime_client *client, uint64_t *usec);
/* Never blocks: writes what is queued, reads what is there, dispatches complete replies and
 * events to their callbacks and fails calls past their deadline. Returns 1 when it did
 * something, 0 when there was nothing to do, or -code (a negative chime_code, `error` set)
 * when the connection is broken: every waiting call has been failed with that status and the
 * fd should leave the loop. A malformed or oversized frame breaks the connection. One turn
 * dispatches at most 64 frames and leaves the rest in the socket, so watch the fd
 * level-triggered (poll, GLib, libuv do; with epoll, not EPOLLET). */
int chime_process(chime_client *client, chime_error *error);

/* The end of a subscription or of an asynchronous call: CHIME_OK or its failure. */
typedef void (*chime_done_callback)(int code, const chime_error *error, void *context);

/*
 * Subscribe without blocking, on the client's own connection. Events go to `on_event` from
 * chime_process (return non-zero from it to end the stream); `on_done` (may be NULL) is called
 * once when the stream ends by itself: the callback asked (CHIME_OK), the daemon ended it, the
 * connection broke, or chime_close (CHIME_CANCELLED). `after_cursor` as for chime_subscribe.
 * *out is the caller's: free it with chime_subscription_cancel, whether the stream ended or not
 * (even after chime_close). The client's timeout does not apply.
 */
int chime_subscribe_start(chime_client *client, const uint64_t *after_cursor, chime_event_callback on_event,
                          chime_done_callback on_done, void *context, chime_subscription **out, chime_error *error);
/* Ends the stream if it still runs (a Cancel goes to the daemon; on_done is not called) and
 * frees the handle; safe from its own event callback. NULL is ignored. */
void chime_subscription_cancel(chime_subscription *subscription);
/* Whether the stream still runs. */
bool chime_subscription_active(const chime_subscription *subscription);

/*
 * chime_call without blocking: `callback` gets the outcome from chime_process (or a later
 * blocking call), the reply borrowed for the callback's duration (NULL on failure). The
 * client's timeout applies from now (chime_get_timeout). On a failure to start (a bad
 * argument, the connection already broken, a call over the frame limit) the status is
 * returned and the callback is never called.
 */
typedef void (*chime_reply_callback)(int code, const chime_error *error, const uint8_t *reply, size_t reply_len,
                                     void *context);
int chime_call_start(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
                     chime_reply_callback callback, void *context, chime_error *error);
/* chime_add without blocking: `added` (NULL on failure) is borrowed for the callback. */
typedef void (*chime_add_callback)(int code, const chime_error *error, const chime_notification *added,
                                   void *context);
int chime_add_start(chime_client *client, const chime_request *request, chime_add_callback callback, void *context,
                    chime_error *error);

typedef struct chime_extension_event chime_extension_event;
bool chime_extension_event_registered(const chime_extension_event *event); /* the first event */
/* The delivered notification of a delivery or response event, or NULL. */
const chime_notification *chime_extension_event_notification(const chime_extension_event *event);
uint64_t chime_extension_event_response_id(const chime_extension_event *event); /* 0: not a response */
const char *chime_extension_event_response_identifier(const chime_extension_event *event);
const char *chime_extension_event_response_action(const chime_extension_event *event);
const char *chime_extension_event_response_text(const chime_extension_event *event);
const char *chime_extension_event_media_identifier(const chime_extension_event *event); /* "" : no press */
int chime_extension_event_media_command(const chime_extension_event *event);           /* CHIME_MEDIA_* */
/* A service extension's request: its id (0: none), the request to rewrite and its deadline. */
uint64_t chime_extension_event_service_id(const chime_extension_event *event);
const chime_notification *chime_extension_event_service_request(const chime_extension_event *event);
int64_t chime_extension_event_service_deadline_unix_ms(const chime_extension_event *event);
uint64_t chime_extension_event_service_time_will_expire(const chime_extension_event *event);

/*
 * RegisterExtension, streaming the extension's events to `callback` with chime_subscribe's
 * ending rules. A content extension for the given categories (content_size_ratio: its initial
 * height over its width, required; options: CHIME_EXTENSION_*), or the app's service extension
 * (sent each mutable pushed notification to rewrite). A media play/pause button and what else
 * ExtensionAttributes holds: chime_register_extension_message in <chime/chime-proto.h>.
 */
#define CHIME_EXTENSION_DEFAULT_CONTENT_HIDDEN 0x1u
#define CHIME_EXTENSION_OVERRIDES_DEFAULT_TITLE 0x2u
#define CHIME_EXTENSION_USER_INTERACTION_ENABLED 0x4u
typedef int (*chime_extension_callback)(const chime_extension_event *event, void *context);
int chime_register_content_extension(chime_client *client, const char *extension_identifier,
                                     const char *const *category_identifiers, size_t category_count,
                                     double content_size_ratio, unsigned options, chime_extension_callback callback,
                                     void *context, chime_error *error);
int chime_register_service_extension(chime_client *client, const char *extension_identifier,
                                     chime_extension_callback callback, void *context, chime_error *error);

enum chime_extension_response_option {
  CHIME_RESPONSE_DO_NOT_DISMISS = 1,
  CHIME_RESPONSE_DISMISS = 2,
  CHIME_RESPONSE_DISMISS_AND_FORWARD = 3,
};
/* AnswerResponse: an extension's answer to a response it was routed. */
int chime_answer_response(chime_client *client, const char *extension_identifier, uint64_t response_id, int option,
                          chime_error *error);
/* AnswerService: the service extension's answer to `request_id`: the content of `content`
 * (a request built with chime_request_new; its trigger is ignored), or `error_text` non-NULL to
 * deliver the original. */
int chime_answer_service(chime_client *client, const char *extension_identifier, uint64_t request_id,
                         const chime_request *content, const char *error_text, chime_error *error);

enum chime_media_command { CHIME_MEDIA_PLAY = 1, CHIME_MEDIA_PAUSE = 2 };
enum chime_media_playback { CHIME_PLAYBACK_PLAYING = 1, CHIME_PLAYBACK_PAUSED = 2 };
/* PressMediaButton; *extension_identifier (free(); may be NULL) names who got it. */
int chime_press_media_button(chime_client *client, const char *notification_identifier, int command,
                             char **extension_identifier, chime_error *error);
int chime_report_media_playback(chime_client *client, const char *extension_identifier,
                                const char *notification_identifier, int playback, chime_error *error);

/* Push: an APNs-style JSON payload, delivered at once as `identifier` (NULL: the daemon
 * picks). *out (may be NULL) is the delivered notification. */
int chime_push(chime_client *client, const char *payload_json, const char *identifier, chime_notification **out,
               chime_error *error);

/* ---- authorization and settings ---------------------------------------------------------- */

/* Options of RequestAuthorization, and the switches of chime_settings_enabled. */
#define CHIME_AUTH_ALERT 0x1u
#define CHIME_AUTH_SOUND 0x2u
#define CHIME_AUTH_BADGE 0x4u
#define CHIME_AUTH_CRITICAL_ALERT 0x8u
#define CHIME_AUTH_PROVISIONAL 0x10u /* a request option only */
#define CHIME_AUTH_TIME_SENSITIVE 0x20u
#define CHIME_AUTH_CAR_PLAY 0x40u
#define CHIME_AUTH_PROVIDES_APP_NOTIFICATION_SETTINGS 0x80u
#define CHIME_AUTH_ANNOUNCEMENT 0x100u

enum chime_authorization_status {
  CHIME_AUTHORIZATION_NOT_DETERMINED = 0,
  CHIME_AUTHORIZATION_DENIED = 1,
  CHIME_AUTHORIZATION_AUTHORIZED = 2,
  CHIME_AUTHORIZATION_PROVISIONAL = 3,
};
#define CHIME_UNCHANGED (-1)

typedef struct chime_settings chime_settings;
int chime_settings_authorization_status(const chime_settings *settings);
bool chime_settings_enabled(const chime_settings *settings, unsigned switch_bit); /* one CHIME_AUTH_* */
int64_t chime_settings_badge_count(const chime_settings *settings);
void chime_settings_free(chime_settings *settings);

/* RequestAuthorization (options: CHIME_AUTH_*); `granted` and `settings` may be NULL. */
int chime_request_authorization(chime_client *client, unsigned options, bool *granted, chime_settings **settings,
                                chime_error *error);
int chime_get_settings(chime_client *client, chime_settings **out, chime_error *error);
int chime_set_badge_count(chime_client *client, int64_t count, chime_error *error);
/* SetAppSettings: the user's switches for another app: `status` a CHIME_AUTHORIZATION_* or
 * CHIME_UNCHANGED; the switches in `change` (CHIME_AUTH_*) are set as in `values`. */
int chime_set_app_settings(chime_client *client, const char *app_id, int status, unsigned change, unsigned values,
                           chime_settings **out, chime_error *error);

/* ---- Do Not Disturb (the user's setting) ------------------------------------------------- */

/* Where Do Not Disturb is on from (chime_dnd_source). When several apply, the first of
 * manual, schedule, desktop is named. */
enum chime_dnd_source {
  CHIME_DND_OFF = 0,
  CHIME_DND_MANUAL = 1,   /* switched on by hand */
  CHIME_DND_SCHEDULE = 2, /* a window of the schedule */
  CHIME_DND_DESKTOP = 3,  /* the notification server is paused or inhibited (chime_dnd_desktop) */
};
/* Schedule weekdays: bit 0 Monday ... bit 6 Sunday. */
#define CHIME_DND_EVERY_DAY 0x7Fu

typedef struct chime_dnd chime_dnd;
bool chime_dnd_active(const chime_dnd *dnd);
int chime_dnd_source(const chime_dnd *dnd); /* a CHIME_DND_* */
int64_t chime_dnd_until_unix_ms(const chime_dnd *dnd);      /* when on: its source's end (0: none) */
int64_t chime_dnd_next_start_unix_ms(const chime_dnd *dnd); /* the next scheduled start (0: none) */
const char *chime_dnd_desktop(const chime_dnd *dnd); /* "dunst paused", "KDE inhibited" or "" */
bool chime_dnd_manual_on(const chime_dnd *dnd);
int64_t chime_dnd_manual_until_unix_ms(const chime_dnd *dnd); /* 0: until switched off */
/* Whether there is a schedule; its window (minutes after midnight) and weekdays when so. */
bool chime_dnd_schedule(const chime_dnd *dnd, unsigned *start_minute, unsigned *end_minute, unsigned *days);
bool chime_dnd_follows_desktop(const chime_dnd *dnd); /* the setting */
bool chime_dnd_summary(const chime_dnd *dnd);         /* the setting */
const char *chime_dnd_time_zone(const chime_dnd *dnd); /* where the schedule is read */
void chime_dnd_free(chime_dnd *dnd);

/* GetDoNotDisturb. */
int chime_get_do_not_disturb(chime_client *client, chime_dnd **out, chime_error *error);
/* SetDoNotDisturb: `manual` 1 on (until `until_unix_ms`, 0: until switched off), 0 off;
 * `follow_desktop` whether a paused notification server counts; `summary` whether one popup
 * sums up what arrived quietly when it ends. Each CHIME_UNCHANGED, 0 or 1. *out may be NULL. */
int chime_set_do_not_disturb(chime_client *client, int manual, int64_t until_unix_ms, int follow_desktop, int summary,
                             chime_dnd **out, chime_error *error);
/* The schedule's window (minutes after midnight; an end at or before the start is the next
 * day) on `days` (CHIME_DND_EVERY_DAY or bits), or cleared. */
int chime_set_do_not_disturb_schedule(chime_client *client, unsigned start_minute, unsigned end_minute, unsigned days,
                                      chime_dnd **out, chime_error *error);
int chime_clear_do_not_disturb_schedule(chime_client *client, chime_dnd **out, chime_error *error);

/* ---- apps, sounds, the server ------------------------------------------------------------ */

typedef struct chime_app chime_app;
const char *chime_app_id(const chime_app *app);
bool chime_app_registered(const chime_app *app);
const char *chime_app_container(const chime_app *app);
size_t chime_app_group_container_count(const chime_app *app);
const char *chime_app_group_container_at(const chime_app *app, size_t index);
const char *chime_app_bundle(const chime_app *app);
const char *chime_app_display_name(const chime_app *app);
const char *chime_app_desktop_entry(const chime_app *app);
void chime_app_free(chime_app *app); /* one borrowed from a list is left alone */

typedef struct chime_app_list chime_app_list;
size_t chime_app_list_count(const chime_app_list *list);
const chime_app *chime_app_list_at(const chime_app_list *list, size_t index);
void chime_app_list_free(chime_app_list *list);

/* RegisterApp: the app's data container, group containers and bundle (absolute directories;
 * NULL or "" for none), display name and desktop entry. *out is the stored layout. */
int chime_register_app(chime_client *client, const char *container, const char *const *group_containers,
                       size_t group_container_count, const char *bundle, const char *display_name,
                       const char *desktop_entry, chime_app **out, chime_error *error);
int chime_get_app(chime_client *client, chime_app **out, chime_error *error); /* registered false: never */
int chime_list_apps(chime_client *client, chime_app_list **out, chime_error *error);

/* CheckSound: where a named sound is searched for and what it resolves to. */
typedef struct chime_sound_check chime_sound_check;
size_t chime_sound_check_searched_count(const chime_sound_check *check);
const char *chime_sound_check_searched_path(const chime_sound_check *check, size_t index);
bool chime_sound_check_searched_exists(const chime_sound_check *check, size_t index);
const char *chime_sound_check_plays(const chime_sound_check *check);
const char *chime_sound_check_path(const chime_sound_check *check);
const char *chime_sound_check_reason(const chime_sound_check *check);
void chime_sound_check_free(chime_sound_check *check);
int chime_check_sound(chime_client *client, const char *name, chime_sound_check **out, chime_error *error);

/* GetServerInfo: what is serving. */
typedef struct chime_server_info chime_server_info;
const char *chime_server_info_version(const chime_server_info *info);
uint32_t chime_server_info_pid(const chime_server_info *info);
int64_t chime_server_info_started_at_ms(const chime_server_info *info);
const char *chime_server_info_data_directory(const chime_server_info *info);
const char *chime_server_info_socket_path(const chime_server_info *info);
void chime_server_info_free(chime_server_info *info);
int chime_get_server_info(chime_client *client, chime_server_info **out, chime_error *error);

#ifdef __cplusplus
}
#endif

#endif /* CHIME_CHIME_H */
