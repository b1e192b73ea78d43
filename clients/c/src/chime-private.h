/*
 * libchime-client's internals: the structs behind the opaque types of <chime/chime.h> and the
 * helpers the source files share. Internal functions are named chimei_*; the version script
 * (libchime-client.map) keeps them out of the shared library's exports.
 */
#ifndef CHIME_PRIVATE_H
#define CHIME_PRIVATE_H

#include <chime/chime-proto.h>
#include <chime/chime.h>

#include "chime/v1/frame.pb-c.h"
#include "chime/v1/notification_center.pb-c.h"

#define CHIMEI_SERVICE_PREFIX "/chime.v1.NotificationCenter/"
#define CHIMEI_MAX_CALL_BYTES (1u << 20)   /* the daemon's default frame limit */
#define CHIMEI_MAX_REPLY_BYTES (64u << 20) /* sanity bound on what we accept */
#define CHIMEI_DEFAULT_TIMEOUT_MS 30000

/*
 * Reasons reported for failures on the client's side, for the shared reason catalogue (the
 * daemon's are in the README's reason table). "C" is this library, "Py" clients/python.
 *   DAEMON_UNAVAILABLE   UNAVAILABLE        C Py  nothing accepts connections at the socket
 *   CONNECTION_CLOSED    UNAVAILABLE        C Py  the connection broke, or was broken before
 *   DEADLINE_EXCEEDED    DEADLINE_EXCEEDED  C Py  no answer within the client's timeout
 *   FRAME_TOO_LARGE      RESOURCE_EXHAUSTED C Py  a call over the daemon's 1 MiB frame limit
 *                                                 (refused before sending), or a reply over 64 MiB
 *   SOCKET_PATH_TOO_LONG INVALID_ARGUMENT   C     the socket path does not fit in sun_path
 *   CANCELLED            CANCELLED          C     a stream ended by chime_subscribe_stop, or a call
 *                                                 still waiting when its client was closed
 * Invented by the clients, in no catalogue yet:
 *   MALFORMED_REPLY      INTERNAL           C Py  the daemon's answer does not decode as the
 *                                                 expected message, or pages never end
 *   OUT_OF_MEMORY        RESOURCE_EXHAUSTED C     an allocation in the client failed
 *   QUEUE_FULL           RESOURCE_EXHAUSTED C     over 8 MiB of calls queued and not yet written
 *   INVALID_ARGUMENT     INVALID_ARGUMENT   C     a NULL or out-of-range argument (also a setter's
 *                                                 bad argument, reported by the call that sends)
 */

struct chime_error {
  int code;
  char reason[96];
  char message[512];
  char field[160];
};

/*
 * A call awaiting its reply on a client's connection (src/loop.c). One struct for the three
 * kinds; a subscription's is the chime_subscription handle the caller holds.
 */
enum chimei_op_kind {
  CHIMEI_OP_SYNC,         /* a blocking chime_call: on the caller's stack while it waits */
  CHIMEI_OP_ASYNC,        /* chime_call_start and the typed *_start calls: freed after `finish` */
  CHIMEI_OP_SUBSCRIPTION, /* chime_subscribe_start: freed by chime_subscription_cancel only */
};
typedef struct chime_subscription chimei_op;
struct chime_subscription {
  chimei_op *next;       /* in client->ops while waiting for replies */
  chime_client *client;  /* NULL once the subscription ended */
  enum chimei_op_kind kind;
  uint64_t call_id;
  int64_t deadline_ms;   /* CLOCK_MONOTONIC ms; < 0: none */
  int timeout_ms;        /* the client's timeout when the call started, for the message */
  char method[256];      /* the full method path, for the frame and error messages */
  /* SYNC: the final reply frame (owned), or the failure that ended the wait. */
  Chime__V1__Frame *answer;
  bool done;
  chime_error failure;
  /* ASYNC: called once with the outcome; `reply` is NULL on failure. */
  void (*finish)(chimei_op *op, int code, const chime_error *error, const Chime__V1__Reply *reply);
  void (*user)(void); /* the caller's callback, cast back by `finish` */
  void *context;
  /* SUBSCRIPTION (any server stream): each message, unpacked as message_type, goes to
   * on_message (non-zero: end the stream); chime_subscribe_start's calls on_event. */
  const ProtobufCMessageDescriptor *message_type;
  int (*on_message)(chimei_op *op, const ProtobufCMessage *message);
  chime_event_callback on_event;
  chime_done_callback on_done;
  int dispatching;       /* > 0 while its event callback runs */
  bool cancelled;        /* chime_subscription_cancel ran during the callback: free on return */
};

struct chime_client {
  int fd;
  int stop_fd; /* eventfd: chime_subscribe_stop wakes a running stream */
  char *app_id;
  char *socket_path;
  uint64_t next_call_id;
  int timeout_ms;
  bool broken; /* the connection can no longer carry calls; later calls report broken_error */
  chime_error broken_error;
  /* The non-blocking machine (src/loop.c) every call on this connection goes through. */
  uint8_t *in;      /* the frame being read: its 4-byte length, then its body */
  size_t in_len, in_cap;
  uint8_t *out;     /* whole frames queued for writing; out_sent of them already written */
  size_t out_len, out_sent, out_cap;
  chimei_op *ops;   /* the calls awaiting replies, newest first */
};

/* A notification borrows from `owner` (or from whatever holds it when owner is NULL). */
struct chime_notification {
  ProtobufCMessage *owner; /* non-NULL: freed with the notification */
  const Chime__V1__NotificationRequest *request;
  const Chime__V1__PendingRequest *pending;
  const Chime__V1__DeliveredNotification *delivered;
  bool replaced;
};

struct chime_notification_list {
  size_t count;
  chime_notification *items;
  ProtobufCMessage **pages; /* the responses the items borrow from */
  size_t page_count;
  char *next_page_token;
};

struct chime_id_list {
  Chime__V1__RemoveResponse *owner;
};

struct chime_date_list {
  Chime__V1__NextTriggerDatesResponse *owner;
};

struct chime_request {
  Chime__V1__NotificationRequest *message; /* malloc'd throughout: freed with free_unpacked */
  int failed;                              /* the first setter failure, reported by the calls */
};

struct chime_category {
  Chime__V1__Category *message;
  bool owned; /* a builder (freed with chime_category_free), not a list's item */
  int failed;
};

struct chime_category_list {
  Chime__V1__GetCategoriesResponse *owner;
  chime_category *items;
};

struct chime_event {
  const Chime__V1__Event *message;
  chime_notification notification;
  bool has_notification;
};

struct chime_extension_event {
  const Chime__V1__ExtensionEvent *message;
  chime_notification notification, service_request;
  bool has_notification, has_service_request;
};

struct chime_dnd {
  ProtobufCMessage *owner;
  const Chime__V1__DoNotDisturbState *message;
};

struct chime_settings {
  ProtobufCMessage *owner;
  const Chime__V1__NotificationSettings *message;
};

struct chime_app {
  ProtobufCMessage *owner; /* NULL: borrowed from a chime_app_list */
  const Chime__V1__AppLayout *message;
};

struct chime_app_list {
  Chime__V1__ListAppsResponse *owner;
  chime_app *items;
};

struct chime_sound_check {
  Chime__V1__CheckSoundResponse *owner;
};

struct chime_server_info {
  Chime__V1__ServerInfo *owner;
};

/* ---- status.c ---- */
int chimei_ok(chime_error *error);
__attribute__((format(printf, 4, 5))) int chimei_fail(chime_error *error, int code, const char *reason,
                                                      const char *format, ...);
int chimei_oom(chime_error *error);
int chimei_from_wire(chime_error *error, const Chime__V1__Status *wire);
void chimei_copy_text(char *dst, size_t size, const char *src);
/* "" for NULL: the accessors' answer for what is unset. */
const char *chimei_text(const char *text);

/* ---- transport.c ---- */
int64_t chimei_monotonic_ms(void);
/* Marks the connection unusable (later calls fail with `why`), ends every call still waiting
 * on it with `why`, and reports `why`. */
int chimei_break(chime_client *client, chime_error *error, const chime_error *why);
__attribute__((format(printf, 5, 6))) int chimei_fail_connection(chime_client *client, chime_error *error, int code,
                                                                 const char *reason, const char *format, ...);

/* ---- call.c ---- */
/* A unary call with a protobuf-c request; on success *response is the unpacked answer. */
/* src/loop.c: the connection's state machine. */
#define CHIMEI_MAX_QUEUED_BYTES (8u << 20) /* bound on frames queued for writing */
uint64_t chimei_next_call_id(chime_client *client);
/* Packs `frame` onto the write queue (not written yet: chimei_pump or chime_process writes). */
int chimei_queue_frame(chime_client *client, const Chime__V1__Frame *frame, chime_error *error);
void chimei_queue_cancel(chime_client *client, uint64_t call_id);
void chimei_op_link(chime_client *client, chimei_op *op);
void chimei_op_unlink(chime_client *client, chimei_op *op);
/* Writes what it can, reads and dispatches what is there, expires async deadlines; never
 * blocks. Returns > 0 when it did something. */
int chimei_pump(chime_client *client);
/* Ends every waiting call with `why` (the connection broke or the client closes). */
void chimei_fail_all(chime_client *client, const chime_error *why);
/* Starts a server stream (`method`: a NotificationCenter method) on `client`'s connection. */
int chimei_stream_start(chime_client *client, const char *method, const ProtobufCMessage *request,
                        const ProtobufCMessageDescriptor *message_type,
                        int (*on_message)(chimei_op *op, const ProtobufCMessage *message), chime_done_callback on_done,
                        void *context, chimei_op **out, chime_error *error);
/* Starts an asynchronous unary call whose outcome goes to `finish`. */
int chimei_start_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                      void (*finish)(chimei_op *, int, const chime_error *, const Chime__V1__Reply *),
                      void (*user)(void), void *context, chime_error *error);

int chimei_unary(chime_client *client, const char *method, const ProtobufCMessage *request,
                 const ProtobufCMessageDescriptor *response_type, ProtobufCMessage **response, chime_error *error);
/* chimei_unary into *response and, when `wanted`, a zeroed result object of `size` bytes in
 * *made for the caller to fill (nothing made and the response freed when that fails). */
int chimei_result_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                       const ProtobufCMessageDescriptor *response_type, bool wanted, size_t size, void **made,
                       ProtobufCMessage **response, chime_error *error);

/* ---- requests.c ---- */
/* The request's first setter failure, reported in `error`; CHIME_OK when it is usable. */
int chimei_request_check(const chime_request *request, chime_error *error);
/* Replaces the malloc'd string at *slot (empty-string default or malloc'd) with a copy of `value`. */
int chimei_set_text(char **slot, const char *value);
/* Remembers a setter's first failure for the call that sends the request; returns `code`. */
int chimei_request_note(chime_request *request, int code);

/* ---- notifications.c ---- */
void chimei_notification_of_request(chime_notification *n, const Chime__V1__NotificationRequest *request);
void chimei_notification_of_pending(chime_notification *n, const Chime__V1__PendingRequest *pending);
void chimei_notification_of_delivered(chime_notification *n, const Chime__V1__DeliveredNotification *delivered);
/* A notification owning `owner` (freed with it); NULL when out of memory (owner freed). */
chime_notification *chimei_notification_owning(ProtobufCMessage *owner);

/* ---- streams.c ---- */
int chimei_run_stream(chime_client *client, const char *method, const ProtobufCMessage *request,
                      const ProtobufCMessageDescriptor *message_type, int (*callback)(const void *, void *),
                      void *context, chime_error *error);

#endif /* CHIME_PRIVATE_H */
