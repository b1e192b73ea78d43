/*
 * libchime-client: a small C client for chimed, the Chime notification scheduler daemon.
 *
 * It speaks the chime.v1 wire protocol (Protos/chime/v1/frame.proto) over the daemon's Unix
 * socket: each frame is a 4-byte big-endian length and one serialized chime.v1.Frame, encoded
 * with the protobuf-c code generated from Protos/ (Sources/CChimeProto/Generated).
 *
 *   chime_client *chime;
 *   chime_status st;
 *   if (chime_connect(&chime, NULL, "org.example.app", &st) != CHIME_OK) {
 *     fprintf(stderr, "%s: %s\n", st.reason, st.message);
 *     return 1;
 *   }
 *   chime_add_interval(chime, "tea", "Tea", "Ready", 180, false, NULL, &st);
 *   chime_close(chime);
 *
 * Every call returns its status code (CHIME_OK, 0, on success) and, when `status` is not
 * NULL, fills it with the code, the daemon's stable reason (e.g. "INVALID_INTERVAL"), a
 * message and the offending field path. Failures on the client side use the same codes with
 * these reasons: DAEMON_UNAVAILABLE (cannot connect), CONNECTION_CLOSED (the connection broke
 * or was already broken), DEADLINE_EXCEEDED (no answer within the timeout), FRAME_TOO_LARGE
 * (a call over the daemon's 1 MiB frame limit, refused before sending), MALFORMED_REPLY,
 * INVALID_ARGUMENT (a NULL argument), SOCKET_PATH_TOO_LONG, OUT_OF_MEMORY.
 *
 * OWNERSHIP (the one rule for every function here):
 *   - Arguments are borrowed. The library never keeps, changes or frees what you pass in
 *     (strings, arrays, chime_* option structs, protobuf-c request structs); it only reads
 *     them during the call.
 *   - Results are the caller's. A function that fills an out-parameter hands over ownership
 *     of it on CHIME_OK (on failure it is left empty: NULL pointers, zero counts, safe to
 *     free). Free each with the function named next to it:
 *       Chime__V1__* messages (Chime__V1__AddResponse **out and so on)  -> chime_message_free
 *       chime_pending_list  -> chime_pending_list_free     chime_id_list -> chime_id_list_free
 *       chime_category_list -> chime_category_list_free    chime_call's *reply -> free()
 *   - Callbacks (chime_subscribe, chime_register_extension) borrow the message they are given:
 *     it is freed when the callback returns, so copy what you keep (event->cursor, strings).
 *   - chime_status is a plain value with fixed-size buffers: nothing to free.
 * Messages are the protobuf-c structs generated from Protos/chime/v1 (include
 * "chime/v1/notification_center.pb-c.h"; link with -lprotobuf-c, or use `pkg-config
 * --cflags --libs chime-client`). Build requests on the stack with the generated
 * CHIME__V1__*__INIT initialisers; unset strings may stay at their "" default.
 *
 * Deadlines: every unary call waits at most the client's timeout (chime_set_timeout_ms; it
 * applies to each following call, so set it before a call to give that call its own). The
 * deadline is sent to the daemon in the frame's deadline_unix_ms and enforced here with
 * poll(2): the call ends with CHIME_DEADLINE_EXCEEDED / reason DEADLINE_EXCEEDED.
 *
 * Threads: a chime_client makes one call at a time and is not thread-safe; use one per
 * thread, or a lock around it. Distinct clients are independent. Writes use MSG_NOSIGNAL, so
 * a daemon that goes away is an error, never a SIGPIPE.
 */
#ifndef CHIME_CLIENT_H
#define CHIME_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chime/v1/notification_center.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* The outcome of a call. Strings are NUL-terminated and truncated to fit. */
typedef struct chime_status {
  int code;          /* enum chime_code */
  char reason[96];   /* stable identifier, "" when OK */
  char message[512]; /* human-readable */
  char field[160];   /* path of the offending field, "" if none */
} chime_status;

typedef struct chime_client chime_client;

/* One pending request, as listed by chime_pending. Strings are owned by the list. */
typedef struct chime_pending_item {
  char *identifier;
  char *title;
  char *body;
  int64_t next_fire_unix_ms;
  int64_t added_unix_ms;
  double interval_seconds; /* 0 unless a time-interval trigger */
  bool repeats;
} chime_pending_item;

typedef struct chime_pending_list {
  size_t count;
  chime_pending_item *items;
} chime_pending_list;

typedef struct chime_id_list {
  size_t count;
  char **ids;
} chime_id_list;

/* "INVALID_ARGUMENT" and so on; a code outside 0...16 gives "UNKNOWN_CODE". */
const char *chime_code_name(int code);

/*
 * The daemon's default socket, resolved as chimed resolves it: $CHIME_SOCKET, else
 * $XDG_RUNTIME_DIR/chime/chimed.sock, else /tmp/chime-<uid>/chimed.sock. Writes it to `buf`
 * and returns `buf`, or returns NULL when it does not fit in `size` bytes.
 */
const char *chime_default_socket_path(char *buf, size_t size);

/*
 * Connects to chimed and acts for `app_id` (a reverse-DNS identifier, checked by the daemon).
 * `socket_path` NULL means chime_default_socket_path(). On success *out is a client to free
 * with chime_close; on failure *out is NULL.
 */
int chime_connect(chime_client **out, const char *socket_path, const char *app_id, chime_status *status);

/* Closes the connection and frees the client. NULL is ignored. */
void chime_close(chime_client *client);

/*
 * How long a call waits for its answer, in milliseconds (default 30000; negative: forever).
 * A call that times out is cancelled and the connection stays usable; one that times out in
 * the middle of reading a reply frame leaves the connection broken (CONNECTION_CLOSED after).
 */
void chime_set_timeout_ms(chime_client *client, int timeout_ms);

/*
 * Schedules `identifier` to fire `seconds` from now (repeating every `seconds` when `repeats`;
 * the daemon then requires >= 60). The same identifier replaces the app's earlier pending
 * request. `title` and `body` may be NULL. When `next_fire_unix_ms` is not NULL it receives
 * the instant the daemon scheduled.
 */
int chime_add_interval(chime_client *client, const char *identifier, const char *title, const char *body,
                       double seconds, bool repeats, int64_t *next_fire_unix_ms, chime_status *status);

/* All of the app's pending requests (every page). Free with chime_pending_list_free. */
int chime_pending(chime_client *client, chime_pending_list *out, chime_status *status);
void chime_pending_list_free(chime_pending_list *list);

/*
 * Removes pending requests by identifier. `removed`, when not NULL, receives the identifiers
 * that existed and were removed (free with chime_id_list_free).
 */
int chime_remove(chime_client *client, const char *const *identifiers, size_t count, chime_id_list *removed,
                 chime_status *status);

/* Removes all of the app's pending requests. */
int chime_remove_all(chime_client *client, chime_id_list *removed, chime_status *status);
void chime_id_list_free(chime_id_list *list);

/*
 * Delivers `identifier` at once (a request with no trigger), in the category
 * `category_identifier` (NULL or "" for none), so that it can be answered with chime_respond.
 */
int chime_add_now(chime_client *client, const char *identifier, const char *title, const char *body,
                  const char *category_identifier, chime_status *status);

/* ---- Categories and actions (UNNotificationCategory / UNNotificationAction) ---- */

/* chime_action.options bits */
#define CHIME_ACTION_AUTHENTICATION_REQUIRED 0x1u
#define CHIME_ACTION_DESTRUCTIVE 0x2u
#define CHIME_ACTION_FOREGROUND 0x4u
/* chime_category.options bits */
#define CHIME_CATEGORY_CUSTOM_DISMISS_ACTION 0x1u
#define CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE 0x2u
#define CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE 0x4u

/* The actions of a response that opened or dismissed a notification. */
#define CHIME_DEFAULT_ACTION "chime.default"
#define CHIME_DISMISS_ACTION "chime.dismiss"

/* An action. NULL strings mean "". A text-input action has `text_input` set. */
typedef struct chime_action {
  const char *identifier;
  const char *title;
  unsigned options; /* CHIME_ACTION_* */
  const char *icon;
  bool text_input;
  const char *text_input_button_title;
  const char *text_input_placeholder;
} chime_action;

/* A category. NULL strings mean "". */
typedef struct chime_category {
  const char *identifier;
  const chime_action *actions;
  size_t action_count;
  unsigned options; /* CHIME_CATEGORY_* */
  const char *const *intent_identifiers;
  size_t intent_identifier_count;
  const char *hidden_previews_body_placeholder;
  const char *summary_format;
} chime_category;

/* The app's categories as chime_categories returns them; everything is owned by the list. */
typedef struct chime_category_list {
  size_t count;
  chime_category *items;
  void *owner; /* private */
} chime_category_list;

/*
 * Replaces all of the app's categories (count 0 removes them). A refusal names its field in
 * status->field, e.g. reason DUPLICATE_ACTION_IDENTIFIER, field
 * "categories[0].actions[2].identifier".
 */
int chime_set_categories(chime_client *client, const chime_category *categories, size_t count, chime_status *status);

/* The app's categories in the order they were set. Free with chime_category_list_free. */
int chime_categories(chime_client *client, chime_category_list *out, chime_status *status);
void chime_category_list_free(chime_category_list *list);

/*
 * Answers the delivered notification `identifier`: `action` NULL or CHIME_DEFAULT_ACTION
 * (opened), CHIME_DISMISS_ACTION, or an action of its category; `text` (NULL for none) for a
 * text-input action. `removed`, when not NULL, says the notification left the delivered list.
 * Refusals: NOT_FOUND NOTIFICATION_NOT_DELIVERED; INVALID_ARGUMENT UNKNOWN_ACTION,
 * TEXT_REQUIRED, TEXT_NOT_ACCEPTED; FAILED_PRECONDITION DISMISS_NOT_ENABLED.
 */
int chime_respond(chime_client *client, const char *identifier, const char *action, const char *text, bool *removed,
                  chime_status *status);

/*
 * Any unary call: `method` is a NotificationCenter method name ("GetDelivered") or a full
 * path ("/chime.v1.NotificationCenter/GetDelivered"); `payload` is the serialized request
 * message. On success *reply (free with free(); may be NULL when empty) holds the serialized
 * response message.
 */
int chime_call(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
               uint8_t **reply, size_t *reply_len, chime_status *status);

/* ---- every rpc of chime.v1.NotificationCenter ---------------------------------------------
 * Results of these are protobuf-c messages owned by the caller: free with chime_message_free.
 * `out` may be NULL when the result is not wanted. */

/* Frees any message this library returned (protobuf_c_message_free_unpacked). NULL is ignored. */
void chime_message_free(void *message);

/* A value that leaves a date component unset (chime_date_components). */
#define CHIME_UNSET INT32_MIN

/* Calendar date components; fields left CHIME_UNSET do not take part in the match. */
typedef struct chime_date_components {
  int32_t year, month, day, hour, minute, second, weekday, weekday_ordinal, week_of_month, week_of_year,
      year_for_week_of_year;
  const char *time_zone; /* IANA name, NULL or "" for the daemon's zone */
} chime_date_components;
#define CHIME_DATE_COMPONENTS_INIT                                                                              \
  { CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, CHIME_UNSET,   \
    CHIME_UNSET, CHIME_UNSET, CHIME_UNSET, NULL }

/* A trigger: none (deliver at once), a time interval, or calendar components. */
enum chime_trigger_kind { CHIME_TRIGGER_NONE = 0, CHIME_TRIGGER_INTERVAL = 1, CHIME_TRIGGER_CALENDAR = 2 };
typedef struct chime_trigger {
  int kind;                         /* enum chime_trigger_kind */
  double seconds;                   /* CHIME_TRIGGER_INTERVAL */
  chime_date_components calendar;   /* CHIME_TRIGGER_CALENDAR */
  bool repeats;
} chime_trigger;

/* Sound kinds (chime.v1.SoundKind). */
enum chime_sound_kind {
  CHIME_SOUND_UNSPECIFIED = 0, /* silent */
  CHIME_SOUND_NONE = 1,
  CHIME_SOUND_DEFAULT = 2,
  CHIME_SOUND_NAMED = 3,
  CHIME_SOUND_DEFAULT_CRITICAL = 4,
  CHIME_SOUND_CRITICAL_NAMED = 5,
};
typedef struct chime_sound {
  int kind;         /* enum chime_sound_kind */
  const char *name; /* a file name under the app's or the user's Sounds (NAMED kinds) */
  bool has_volume;  /* critical sounds: volume 0...1 */
  double volume;
} chime_sound;

/* An attachment: a file the daemon moves into its store when the request is accepted (copied
 * when it lies inside the app's registered bundle), with UNNotificationAttachment's options. */
typedef struct chime_attachment {
  const char *identifier; /* NULL or "": the daemon makes one */
  const char *path;       /* absolute path */
  const char *type_hint;  /* UTI, e.g. "public.png"; NULL: from the file */
  bool thumbnail_hidden;
  bool has_clipping_rect; /* unit rectangle of the thumbnail */
  double clip_x, clip_y, clip_width, clip_height;
  bool has_thumbnail_time; /* seconds into a movie or animation */
  double thumbnail_time;
} chime_attachment;

/* Notification content in plain C; NULL strings are "". */
typedef struct chime_content {
  const char *title, *subtitle, *body;
  const char *category_identifier, *thread_identifier;
  const char *user_info_json;  /* a JSON object, or NULL */
  bool has_badge;
  int64_t badge;
  const chime_sound *sound;    /* NULL: silent */
  const chime_attachment *attachments;
  size_t attachment_count;
  int interruption_level;      /* chime.v1.InterruptionLevel; 0 is ACTIVE */
} chime_content;

/*
 * Add (UNUserNotificationCenter.add): schedules `identifier` with `content` and `trigger`
 * (NULL: delivered at once). The same identifier replaces the app's earlier request. *out
 * (may be NULL) is the AddResponse: pending->next_fire_unix_ms, replaced, delivered.
 */
int chime_add_content(chime_client *client, const char *identifier, const chime_content *content,
                      const chime_trigger *trigger, Chime__V1__AddResponse **out, chime_status *status);

/* Add with a calendar trigger, e.g. every day at 9:30: hour = 9, minute = 30, repeats. */
int chime_add_calendar(chime_client *client, const char *identifier, const char *title, const char *body,
                       const chime_date_components *when, bool repeats, int64_t *next_fire_unix_ms,
                       chime_status *status);

/* Add with a full chime.v1.NotificationRequest (every field of the contract). */
int chime_add_request(chime_client *client, const Chime__V1__NotificationRequest *request,
                      Chime__V1__AddResponse **out, chime_status *status);

/* GetPending, one page (page_size 0: the daemon's default; page_token NULL: the first). */
int chime_pending_page(chime_client *client, uint32_t page_size, const char *page_token,
                       Chime__V1__GetPendingResponse **out, chime_status *status);

/* GetDelivered, one page; follow out->next_page_token until it is "". */
int chime_delivered_page(chime_client *client, uint32_t page_size, const char *page_token,
                         Chime__V1__GetDeliveredResponse **out, chime_status *status);

/* RemoveDelivered / RemoveAllDelivered; `removed` as in chime_remove. */
int chime_remove_delivered(chime_client *client, const char *const *identifiers, size_t count,
                           chime_id_list *removed, chime_status *status);
int chime_remove_all_delivered(chime_client *client, chime_id_list *removed, chime_status *status);

/* NextTriggerDates: the next `count` fire dates of `trigger` after `after_unix_ms` (0: now). */
int chime_next_trigger_dates(chime_client *client, const chime_trigger *trigger, int64_t after_unix_ms,
                             uint32_t count, Chime__V1__NextTriggerDatesResponse **out, chime_status *status);

/*
 * Subscribe: streams the app's events to `callback` on a connection of its own (opened to the
 * client's socket for the client's app), blocking until one of:
 *   - the callback returns non-zero: returns CHIME_OK;
 *   - chime_subscribe_stop(client) is called (from another thread or a signal handler):
 *     returns CHIME_CANCELLED, reason "CANCELLED";
 *   - the stream ends (the daemon shuts down, or refuses): its status.
 * Resume cursor: pass `after_cursor` NULL for new events only (the stream starts with an
 * EVENT_KIND_SUBSCRIBED event once it is live), or a pointer to the cursor of the last event
 * you handled: the daemon first replays the stored events after it, then SUBSCRIBED. The
 * event is borrowed (freed after the callback returns). The client's timeout does not apply.
 * While it runs, other threads may use the same client for unary calls only under their own
 * lock: the subscription itself touches nothing of the client but its stop signal.
 */
typedef int (*chime_event_callback)(const Chime__V1__Event *event, void *context);
int chime_subscribe(chime_client *client, const uint64_t *after_cursor, chime_event_callback callback, void *context,
                    chime_status *status);
/* Makes a running chime_subscribe / chime_register_extension of `client` return. Thread- and
 * async-signal-safe. A stop sent while none runs makes the next one return at once. */
void chime_subscribe_stop(chime_client *client);

/*
 * RegisterExtension: registers a content or service extension and streams its events to
 * `callback` (ExtensionEvent: registered, delivered, response with response_id to answer,
 * media presses, service requests), on a connection of its own, with the same ending rules
 * as chime_subscribe.
 */
typedef int (*chime_extension_callback)(const Chime__V1__ExtensionEvent *event, void *context);
int chime_register_extension(chime_client *client, const Chime__V1__RegisterExtensionRequest *request,
                             chime_extension_callback callback, void *context, chime_status *status);

/* AnswerResponse: an extension's answer to a response it was routed (option: chime.v1.ExtensionResponseOption). */
int chime_answer_response(chime_client *client, const char *extension_identifier, uint64_t response_id, int option,
                          chime_status *status);

/* PressMediaButton (command: chime.v1.MediaCommand); *extension_identifier (free()) names who got it. */
int chime_press_media_button(chime_client *client, const char *notification_identifier, int command,
                             char **extension_identifier, chime_status *status);

/* ReportMediaPlayback (playback: chime.v1.MediaPlayback). */
int chime_report_media_playback(chime_client *client, const char *extension_identifier,
                                const char *notification_identifier, int playback, chime_status *status);

/* Push: an APNs-style JSON payload, delivered at once as `identifier` (NULL: the daemon picks). */
int chime_push(chime_client *client, const char *payload_json, const char *identifier, Chime__V1__PushResponse **out,
               chime_status *status);

/* AnswerService: a service extension's answer to request `request_id`: the changed content,
 * or `error` (non-NULL) to deliver the original. */
int chime_answer_service(chime_client *client, const char *extension_identifier, uint64_t request_id,
                         const Chime__V1__NotificationContent *content, const char *error, chime_status *status);

/* RequestAuthorization (options as in chime.v1.AuthorizationRequest). */
int chime_request_authorization(chime_client *client, const Chime__V1__AuthorizationRequest *options,
                                Chime__V1__AuthorizationResponse **out, chime_status *status);

/* GetSettings. */
int chime_get_settings(chime_client *client, Chime__V1__NotificationSettings **out, chime_status *status);

/* SetBadgeCount. */
int chime_set_badge_count(chime_client *client, int64_t count, chime_status *status);

/* SetAppSettings: the user's switches for another app (request->app_id). */
int chime_set_app_settings(chime_client *client, const Chime__V1__AppSettingsRequest *request,
                           Chime__V1__NotificationSettings **out, chime_status *status);

/*
 * RegisterApp: the app's data container, group containers and bundle (absolute directories;
 * NULL or "" for none), display name and desktop entry. *out is the stored AppLayout.
 */
int chime_register_app(chime_client *client, const char *container, const char *const *group_containers,
                       size_t group_container_count, const char *bundle, const char *display_name,
                       const char *desktop_entry, Chime__V1__AppLayout **out, chime_status *status);

/* GetApp: this app's layout (registered false when it never registered). */
int chime_get_app(chime_client *client, Chime__V1__AppLayout **out, chime_status *status);

/* ListApps: every app the daemon knows. */
int chime_list_apps(chime_client *client, Chime__V1__ListAppsResponse **out, chime_status *status);

/* CheckSound: where a named sound is searched for and how it resolves. */
int chime_check_sound(chime_client *client, const char *name, Chime__V1__CheckSoundResponse **out,
                      chime_status *status);

/* GetServerInfo: what is serving (chimed's version, pid, start time, data directory, socket). */
int chime_get_server_info(chime_client *client, Chime__V1__ServerInfo **out, chime_status *status);

#ifdef __cplusplus
}
#endif

#endif /* CHIME_CLIENT_H */
