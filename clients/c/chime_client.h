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
 * Threads: a chime_client makes one call at a time and is not thread-safe; use one per
 * thread, or a lock around it. Distinct clients are independent. Writes use MSG_NOSIGNAL, so
 * a daemon that goes away is an error, never a SIGPIPE.
 */
#ifndef CHIME_CLIENT_H
#define CHIME_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif

#endif /* CHIME_CLIENT_H */
