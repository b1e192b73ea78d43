/* libchime-client: see chime_client.h. */
#define _GNU_SOURCE /* MSG_NOSIGNAL, SOCK_CLOEXEC */
#include "chime_client.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "chime/v1/frame.pb-c.h"
#include "chime/v1/notification_center.pb-c.h"

#define SERVICE_PREFIX "/chime.v1.NotificationCenter/"
#define MAX_CALL_BYTES (1u << 20)     /* the daemon's default frame limit */
#define MAX_REPLY_BYTES (64u << 20)   /* sanity bound on what we accept */
#define DEFAULT_TIMEOUT_MS 30000

struct chime_client {
  int fd;
  int stop_fd; /* eventfd: chime_subscribe_stop wakes a running stream */
  char *app_id;
  char *socket_path;
  uint64_t next_call_id;
  int timeout_ms;
  /* Set once the connection can no longer carry calls; later calls report it. */
  bool broken;
  chime_status broken_status;
};

/* ---- status helpers ---------------------------------------------------------------------- */

static void copy_text(char *dst, size_t size, const char *src) {
  size_t n = 0;
  if (src != NULL) {
    while (n + 1 < size && src[n] != '\0') {
      dst[n] = src[n];
      n++;
    }
  }
  dst[n] = '\0';
}

__attribute__((format(printf, 4, 5)))
static int fail(chime_status *status, int code, const char *reason, const char *format, ...) {
  if (status != NULL) {
    status->code = code;
    copy_text(status->reason, sizeof status->reason, reason);
    va_list args;
    va_start(args, format);
    vsnprintf(status->message, sizeof status->message, format, args);
    va_end(args);
    status->field[0] = '\0';
  }
  return code;
}

static int ok(chime_status *status) {
  if (status != NULL) {
    memset(status, 0, sizeof *status);
  }
  return CHIME_OK;
}

static int from_wire_status(chime_status *status, const Chime__V1__Status *wire) {
  if (status != NULL) {
    status->code = wire->code;
    copy_text(status->reason, sizeof status->reason, wire->reason);
    copy_text(status->message, sizeof status->message, wire->message);
    copy_text(status->field, sizeof status->field, wire->field);
  }
  return wire->code;
}

/* Marks the connection unusable; later calls fail with this status. */
static int break_connection(chime_client *client, chime_status *status, const chime_status *why) {
  if (!client->broken) {
    client->broken = true;
    client->broken_status = *why;
    if (client->fd >= 0) {
      shutdown(client->fd, SHUT_RDWR);
    }
  }
  if (status != NULL) {
    *status = *why;
  }
  return why->code;
}

__attribute__((format(printf, 5, 6)))
static int fail_connection(chime_client *client, chime_status *status, int code, const char *reason,
                           const char *format, ...) {
  chime_status why;
  why.code = code;
  copy_text(why.reason, sizeof why.reason, reason);
  va_list args;
  va_start(args, format);
  vsnprintf(why.message, sizeof why.message, format, args);
  va_end(args);
  why.field[0] = '\0';
  return break_connection(client, status, &why);
}

const char *chime_code_name(int code) {
  static const char *const names[] = {
      "OK",      "CANCELLED",         "UNKNOWN",     "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
      "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
  };
  if (code < 0 || (size_t)code >= sizeof names / sizeof names[0]) {
    return "UNKNOWN_CODE";
  }
  return names[code];
}

/* ---- socket path and connection ---------------------------------------------------------- */

const char *chime_default_socket_path(char *buf, size_t size) {
  const char *explicit_path = getenv("CHIME_SOCKET");
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  int n;
  if (explicit_path != NULL && explicit_path[0] != '\0') {
    n = snprintf(buf, size, "%s", explicit_path);
  } else if (runtime != NULL && runtime[0] != '\0') {
    n = snprintf(buf, size, "%s/chime/chimed.sock", runtime);
  } else {
    n = snprintf(buf, size, "/tmp/chime-%u/chimed.sock", (unsigned)getuid());
  }
  return (n < 0 || (size_t)n >= size) ? NULL : buf;
}

int chime_connect(chime_client **out, const char *socket_path, const char *app_id, chime_status *status) {
  if (out == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  *out = NULL;
  if (app_id == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "app_id is NULL");
  }
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (socket_path == NULL) {
    socket_path = chime_default_socket_path(address.sun_path, sizeof address.sun_path);
    if (socket_path == NULL) {
      return fail(status, CHIME_INVALID_ARGUMENT, "SOCKET_PATH_TOO_LONG",
                  "the default socket path is longer than %zu bytes", sizeof address.sun_path - 1);
    }
  } else {
    if (strlen(socket_path) >= sizeof address.sun_path) {
      return fail(status, CHIME_INVALID_ARGUMENT, "SOCKET_PATH_TOO_LONG",
                  "socket path is longer than %zu bytes: %s", sizeof address.sun_path - 1, socket_path);
    }
    memcpy(address.sun_path, socket_path, strlen(socket_path) + 1);
  }

  chime_client *client = calloc(1, sizeof *client);
  if (client == NULL || (client->app_id = strdup(app_id)) == NULL) {
    free(client);
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  client->next_call_id = 1;
  client->timeout_ms = DEFAULT_TIMEOUT_MS;
  client->stop_fd = -1;
  client->socket_path = strdup(address.sun_path);
  if (client->socket_path == NULL) {
    client->fd = -1;
    chime_close(client);
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  client->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  client->fd = client->stop_fd < 0 ? -1 : socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (client->fd < 0) {
    int error = errno;
    chime_close(client);
    return fail(status, CHIME_UNAVAILABLE, "DAEMON_UNAVAILABLE", "cannot create a socket: %s", strerror(error));
  }
  int rc;
  do {
    rc = connect(client->fd, (const struct sockaddr *)&address, sizeof address);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    int error = errno;
    chime_close(client);
    return fail(status, CHIME_UNAVAILABLE, "DAEMON_UNAVAILABLE", "cannot connect to chimed at %s: %s",
                address.sun_path, strerror(error));
  }
  *out = client;
  return ok(status);
}

void chime_close(chime_client *client) {
  if (client == NULL) {
    return;
  }
  if (client->fd >= 0) {
    close(client->fd);
  }
  if (client->stop_fd >= 0) {
    close(client->stop_fd);
  }
  free(client->app_id);
  free(client->socket_path);
  free(client);
}

void chime_set_timeout_ms(chime_client *client, int timeout_ms) {
  if (client != NULL) {
    client->timeout_ms = timeout_ms;
  }
}

/* ---- framing ----------------------------------------------------------------------------- */

static int64_t monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Writes all of `data`; 0, or an errno value. */
static int write_all(int fd, const uint8_t *data, size_t length) {
  while (length > 0) {
    ssize_t n = send(fd, data, length, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno;
    }
    data += n;
    length -= (size_t)n;
  }
  return 0;
}

enum read_result { READ_OK, READ_EOF, READ_TIMEOUT, READ_ERROR, READ_STOPPED };

/* Reads exactly `length` bytes by `deadline` (monotonic ms; < 0 none), or until `stop_fd`
 * (an eventfd, -1 for none) is signalled. `*error` gets errno. */
static enum read_result read_exact_or_stop(int fd, int stop_fd, uint8_t *data, size_t length, int64_t deadline,
                                           int *error) {
  while (length > 0) {
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - monotonic_ms();
      if (left <= 0) {
        return READ_TIMEOUT;
      }
      wait = left > 60000 ? 60000 : (int)left;
    }
    struct pollfd pollers[2] = {{.fd = fd, .events = POLLIN, .revents = 0},
                                {.fd = stop_fd, .events = POLLIN, .revents = 0}};
    int ready = poll(pollers, stop_fd >= 0 ? 2 : 1, wait);
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      *error = errno;
      return READ_ERROR;
    }
    if (ready == 0) {
      continue; /* the deadline check above decides */
    }
    if (stop_fd >= 0 && (pollers[1].revents & POLLIN) != 0) {
      uint64_t count;
      (void)!read(stop_fd, &count, sizeof count); /* consume the stop */
      return READ_STOPPED;
    }
    if (pollers[0].revents == 0) {
      continue;
    }
    ssize_t n = recv(fd, data, length, 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      *error = errno;
      return READ_ERROR;
    }
    if (n == 0) {
      return READ_EOF;
    }
    data += n;
    length -= (size_t)n;
  }
  return READ_OK;
}

static enum read_result read_exact(int fd, uint8_t *data, size_t length, int64_t deadline, int *error) {
  return read_exact_or_stop(fd, -1, data, length, deadline, error);
}

/* Sends one frame with its length prefix. */
static int send_frame(chime_client *client, const Chime__V1__Frame *frame, chime_status *status) {
  size_t size = chime__v1__frame__get_packed_size(frame);
  if (size > MAX_CALL_BYTES) {
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE", "the call is %zu bytes; the limit is %u",
                size, MAX_CALL_BYTES);
  }
  uint8_t *buffer = malloc(4 + size);
  if (buffer == NULL) {
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  buffer[0] = (uint8_t)(size >> 24);
  buffer[1] = (uint8_t)(size >> 16);
  buffer[2] = (uint8_t)(size >> 8);
  buffer[3] = (uint8_t)size;
  chime__v1__frame__pack(frame, buffer + 4);
  int error = write_all(client->fd, buffer, 4 + size);
  free(buffer);
  if (error != 0) {
    return fail_connection(client, status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "cannot write to chimed: %s",
                           strerror(error));
  }
  return CHIME_OK;
}

static void send_cancel(chime_client *client, uint64_t call_id) {
  Chime__V1__Cancel cancel;
  chime__v1__cancel__init(&cancel);
  Chime__V1__Frame frame;
  chime__v1__frame__init(&frame);
  frame.call_id = call_id;
  frame.kind_case = CHIME__V1__FRAME__KIND_CANCEL;
  frame.cancel = &cancel;
  (void)send_frame(client, &frame, NULL);
}

/*
 * Reads frames until the final reply of `call_id`. Replies for other call ids (answers to
 * calls this client gave up on) are skipped. On success *out is the unpacked frame.
 */
static int await_reply(chime_client *client, uint64_t call_id, const char *method, Chime__V1__Frame **out,
                       chime_status *status) {
  int64_t deadline = client->timeout_ms < 0 ? -1 : monotonic_ms() + client->timeout_ms;
  for (;;) {
    uint8_t header[4];
    int error = 0;
    enum read_result result = read_exact(client->fd, header, sizeof header, deadline, &error);
    if (result == READ_TIMEOUT) {
      /* Nothing of a frame was read: the connection stays usable. */
      send_cancel(client, call_id);
      return fail(status, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "no answer to %s within %d ms", method,
                  client->timeout_ms);
    }
    if (result == READ_EOF) {
      return fail_connection(client, status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the connection");
    }
    if (result == READ_ERROR) {
      return fail_connection(client, status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "cannot read from chimed: %s",
                             strerror(error));
    }
    size_t length = (size_t)header[0] << 24 | (size_t)header[1] << 16 | (size_t)header[2] << 8 | header[3];
    if (length > MAX_REPLY_BYTES) {
      return fail_connection(client, status, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE",
                             "chimed sent a %zu-byte frame; the limit is %u", length, MAX_REPLY_BYTES);
    }
    uint8_t *body = malloc(length > 0 ? length : 1);
    if (body == NULL) {
      return fail_connection(client, status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    }
    result = read_exact(client->fd, body, length, deadline, &error);
    if (result != READ_OK) {
      free(body);
      if (result == READ_TIMEOUT) {
        return fail_connection(client, status, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED",
                               "no complete answer to %s within %d ms", method, client->timeout_ms);
      }
      return fail_connection(client, status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                             "chimed closed the connection in the middle of a frame");
    }
    Chime__V1__Frame *frame = chime__v1__frame__unpack(NULL, length, body);
    free(body);
    if (frame == NULL || frame->kind_case != CHIME__V1__FRAME__KIND_REPLY || frame->reply == NULL) {
      if (frame != NULL) {
        chime__v1__frame__free_unpacked(frame, NULL);
      }
      return fail_connection(client, status, CHIME_INTERNAL, "MALFORMED_REPLY", "chimed sent a frame that is not a reply");
    }
    if (frame->call_id == 0) {
      /* Connection-level status (framing error, refused peer, shutdown); the daemon hangs up. */
      chime_status why;
      const Chime__V1__Status *wire = frame->reply->status;
      if (wire != NULL && wire->code != CHIME_OK) {
        from_wire_status(&why, wire);
      } else {
        fail(&why, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the connection");
      }
      chime__v1__frame__free_unpacked(frame, NULL);
      return break_connection(client, status, &why);
    }
    if (frame->call_id != call_id || !frame->reply->end_of_stream) {
      chime__v1__frame__free_unpacked(frame, NULL); /* not (the end of) ours */
      continue;
    }
    *out = frame;
    return CHIME_OK;
  }
}

int chime_call(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
               uint8_t **reply, size_t *reply_len, chime_status *status) {
  if (reply != NULL) {
    *reply = NULL;
  }
  if (reply_len != NULL) {
    *reply_len = 0;
  }
  if (client == NULL || method == NULL || (payload == NULL && payload_len > 0)) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client, method or payload is NULL");
  }
  if (client->broken) {
    chime_status why = client->broken_status;
    if (status != NULL) {
      *status = why;
    }
    return why.code;
  }
  char path[256];
  int n = snprintf(path, sizeof path, "%s%s", method[0] == '/' ? "" : SERVICE_PREFIX, method);
  if (n < 0 || (size_t)n >= sizeof path) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "method name is too long");
  }

  Chime__V1__Call call;
  chime__v1__call__init(&call);
  call.method = path;
  call.app_id = client->app_id;
  call.payload.data = (uint8_t *)payload;
  call.payload.len = payload_len;
  if (client->timeout_ms >= 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    call.deadline_unix_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + client->timeout_ms;
  }
  Chime__V1__Frame frame;
  chime__v1__frame__init(&frame);
  frame.call_id = client->next_call_id++;
  if (client->next_call_id == 0) {
    client->next_call_id = 1; /* 0 is reserved */
  }
  frame.kind_case = CHIME__V1__FRAME__KIND_CALL;
  frame.call = &call;
  int code = send_frame(client, &frame, status);
  if (code != CHIME_OK) {
    return code;
  }

  Chime__V1__Frame *answer = NULL;
  code = await_reply(client, frame.call_id, path, &answer, status);
  if (code != CHIME_OK) {
    return code;
  }
  const Chime__V1__Reply *r = answer->reply;
  if (r->status != NULL && r->status->code != CHIME_OK) {
    code = from_wire_status(status, r->status);
    chime__v1__frame__free_unpacked(answer, NULL);
    return code;
  }
  if (reply != NULL && r->payload.len > 0) {
    *reply = malloc(r->payload.len);
    if (*reply == NULL) {
      chime__v1__frame__free_unpacked(answer, NULL);
      return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    }
    memcpy(*reply, r->payload.data, r->payload.len);
  }
  if (reply_len != NULL) {
    *reply_len = r->payload.len;
  }
  chime__v1__frame__free_unpacked(answer, NULL);
  return ok(status);
}

/* Runs a unary call with a protobuf-c request; on success *response is the unpacked answer. */
static int unary(chime_client *client, const char *method, const ProtobufCMessage *request,
                 const ProtobufCMessageDescriptor *response_type, ProtobufCMessage **response, chime_status *status) {
  size_t size = protobuf_c_message_get_packed_size(request);
  uint8_t *payload = malloc(size > 0 ? size : 1);
  if (payload == NULL) {
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  protobuf_c_message_pack(request, payload);
  uint8_t *answer = NULL;
  size_t answer_len = 0;
  int code = chime_call(client, method, payload, size, &answer, &answer_len, status);
  free(payload);
  if (code != CHIME_OK) {
    return code;
  }
  static const uint8_t empty[1] = {0};
  *response = protobuf_c_message_unpack(response_type, NULL, answer_len, answer != NULL ? answer : empty);
  free(answer);
  if (*response == NULL) {
    return fail(status, CHIME_INTERNAL, "MALFORMED_REPLY", "the answer to %s is not a %s", method,
                response_type->name);
  }
  return CHIME_OK;
}

/* ---- NotificationCenter ------------------------------------------------------------------ */

/* Content with the given title, body and category; NULL leaves a field empty. The strings are
 * borrowed: they must outlive the packing of the request. */
static void init_content(Chime__V1__NotificationContent *content, const char *title, const char *body,
                         const char *category_identifier) {
  chime__v1__notification_content__init(content);
  if (title != NULL) {
    content->title = (char *)title;
  }
  if (body != NULL) {
    content->body = (char *)body;
  }
  if (category_identifier != NULL) {
    content->category_identifier = (char *)category_identifier;
  }
}

int chime_add_interval(chime_client *client, const char *identifier, const char *title, const char *body,
                       double seconds, bool repeats, int64_t *next_fire_unix_ms, chime_status *status) {
  if (identifier == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__NotificationContent content;
  init_content(&content, title, body, NULL);
  Chime__V1__TimeIntervalTrigger interval;
  chime__v1__time_interval_trigger__init(&interval);
  interval.seconds = seconds;
  interval.repeats = repeats;
  Chime__V1__Trigger trigger;
  chime__v1__trigger__init(&trigger);
  trigger.kind_case = CHIME__V1__TRIGGER__KIND_TIME_INTERVAL;
  trigger.time_interval = &interval;
  Chime__V1__NotificationRequest request;
  chime__v1__notification_request__init(&request);
  request.identifier = (char *)identifier;
  request.content = &content;
  request.trigger = &trigger;
  Chime__V1__AddRequest add;
  chime__v1__add_request__init(&add);
  add.request = &request;

  ProtobufCMessage *message = NULL;
  int code = unary(client, "Add", &add.base, &chime__v1__add_response__descriptor, &message, status);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__AddResponse *response = (Chime__V1__AddResponse *)message;
  if (next_fire_unix_ms != NULL) {
    *next_fire_unix_ms = response->pending != NULL ? response->pending->next_fire_unix_ms : 0;
  }
  chime__v1__add_response__free_unpacked(response, NULL);
  return CHIME_OK;
}

static char *dup_or_empty(const char *text) { return strdup(text != NULL ? text : ""); }

void chime_pending_list_free(chime_pending_list *list) {
  if (list == NULL) {
    return;
  }
  for (size_t i = 0; i < list->count; i++) {
    free(list->items[i].identifier);
    free(list->items[i].title);
    free(list->items[i].body);
  }
  free(list->items);
  list->items = NULL;
  list->count = 0;
}

/* Appends one page's requests to `list`; false when out of memory. */
static bool append_pending(chime_pending_list *list, const Chime__V1__GetPendingResponse *page) {
  if (page->n_requests == 0) {
    return true;
  }
  chime_pending_item *grown = realloc(list->items, (list->count + page->n_requests) * sizeof *grown);
  if (grown == NULL) {
    return false;
  }
  list->items = grown;
  for (size_t i = 0; i < page->n_requests; i++) {
    const Chime__V1__PendingRequest *pending = page->requests[i];
    const Chime__V1__NotificationRequest *request = pending->request;
    const Chime__V1__NotificationContent *content = request != NULL ? request->content : NULL;
    const Chime__V1__Trigger *trigger = request != NULL ? request->trigger : NULL;
    chime_pending_item *item = &list->items[list->count];
    memset(item, 0, sizeof *item);
    item->identifier = dup_or_empty(request != NULL ? request->identifier : NULL);
    item->title = dup_or_empty(content != NULL ? content->title : NULL);
    item->body = dup_or_empty(content != NULL ? content->body : NULL);
    list->count++; /* counted before the check, so chime_pending_list_free frees it */
    if (item->identifier == NULL || item->title == NULL || item->body == NULL) {
      return false;
    }
    item->next_fire_unix_ms = pending->next_fire_unix_ms;
    item->added_unix_ms = pending->added_unix_ms;
    if (trigger != NULL && trigger->kind_case == CHIME__V1__TRIGGER__KIND_TIME_INTERVAL && trigger->time_interval != NULL) {
      item->interval_seconds = trigger->time_interval->seconds;
      item->repeats = trigger->time_interval->repeats;
    } else if (trigger != NULL && trigger->kind_case == CHIME__V1__TRIGGER__KIND_CALENDAR && trigger->calendar != NULL) {
      item->repeats = trigger->calendar->repeats;
    }
  }
  return true;
}

int chime_pending(chime_client *client, chime_pending_list *out, chime_status *status) {
  if (out == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  out->count = 0;
  out->items = NULL;
  char *token = NULL;
  for (int pages = 0;; pages++) {
    if (pages > 100000) {
      chime_pending_list_free(out);
      free(token);
      return fail(status, CHIME_INTERNAL, "MALFORMED_REPLY", "chimed keeps sending pages");
    }
    Chime__V1__PageRequest request;
    chime__v1__page_request__init(&request);
    if (token != NULL) {
      request.page_token = token;
    }
    ProtobufCMessage *message = NULL;
    int code = unary(client, "GetPending", &request.base, &chime__v1__get_pending_response__descriptor, &message, status);
    free(token);
    token = NULL;
    if (code != CHIME_OK) {
      chime_pending_list_free(out);
      return code;
    }
    Chime__V1__GetPendingResponse *page = (Chime__V1__GetPendingResponse *)message;
    bool appended = append_pending(out, page);
    bool more = page->next_page_token != NULL && page->next_page_token[0] != '\0';
    if (appended && more) {
      token = strdup(page->next_page_token);
      appended = token != NULL;
    }
    chime__v1__get_pending_response__free_unpacked(page, NULL);
    if (!appended) {
      chime_pending_list_free(out);
      return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    }
    if (!more) {
      return ok(status);
    }
  }
}

void chime_id_list_free(chime_id_list *list) {
  if (list == NULL) {
    return;
  }
  for (size_t i = 0; i < list->count; i++) {
    free(list->ids[i]);
  }
  free(list->ids);
  list->ids = NULL;
  list->count = 0;
}

/* Runs a call answered by a RemoveResponse and copies its identifiers to `removed`. */
static int remove_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                       chime_id_list *removed, chime_status *status) {
  if (removed != NULL) {
    removed->count = 0;
    removed->ids = NULL;
  }
  ProtobufCMessage *message = NULL;
  int code = unary(client, method, request, &chime__v1__remove_response__descriptor, &message, status);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__RemoveResponse *response = (Chime__V1__RemoveResponse *)message;
  bool copied = true;
  if (removed != NULL && response->n_removed > 0) {
    removed->ids = calloc(response->n_removed, sizeof *removed->ids);
    copied = removed->ids != NULL;
    for (size_t i = 0; copied && i < response->n_removed; i++) {
      removed->ids[i] = strdup(response->removed[i]);
      removed->count = i + 1;
      copied = removed->ids[i] != NULL;
    }
  }
  chime__v1__remove_response__free_unpacked(response, NULL);
  if (!copied) {
    chime_id_list_free(removed);
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  return CHIME_OK;
}

int chime_remove(chime_client *client, const char *const *identifiers, size_t count, chime_id_list *removed,
                 chime_status *status) {
  if (identifiers == NULL && count > 0) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifiers is NULL");
  }
  for (size_t i = 0; i < count; i++) {
    if (identifiers[i] == NULL) {
      return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier %zu is NULL", i);
    }
  }
  Chime__V1__IdentifiersRequest request;
  chime__v1__identifiers_request__init(&request);
  request.n_identifiers = count;
  request.identifiers = (char **)identifiers;
  return remove_call(client, "RemovePending", &request.base, removed, status);
}

int chime_remove_all(chime_client *client, chime_id_list *removed, chime_status *status) {
  Chime__V1__Empty request;
  chime__v1__empty__init(&request);
  return remove_call(client, "RemoveAllPending", &request.base, removed, status);
}

int chime_add_now(chime_client *client, const char *identifier, const char *title, const char *body,
                  const char *category_identifier, chime_status *status) {
  if (identifier == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__NotificationContent content;
  init_content(&content, title, body, category_identifier);
  Chime__V1__NotificationRequest request;
  chime__v1__notification_request__init(&request);
  request.identifier = (char *)identifier;
  request.content = &content;
  Chime__V1__AddRequest add;
  chime__v1__add_request__init(&add);
  add.request = &request;
  ProtobufCMessage *message = NULL;
  int code = unary(client, "Add", &add.base, &chime__v1__add_response__descriptor, &message, status);
  if (code != CHIME_OK) {
    return code;
  }
  chime__v1__add_response__free_unpacked((Chime__V1__AddResponse *)message, NULL);
  return ok(status);
}

/* ---- categories and responses ------------------------------------------------------------- */

static char *text_or_empty(const char *text) { return (char *)(text != NULL ? text : ""); }

int chime_set_categories(chime_client *client, const chime_category *categories, size_t count, chime_status *status) {
  if (categories == NULL && count > 0) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "categories is NULL");
  }
  size_t action_total = 0;
  for (size_t i = 0; i < count; i++) {
    if (categories[i].actions == NULL && categories[i].action_count > 0) {
      return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "categories[%zu].actions is NULL", i);
    }
    if (categories[i].intent_identifiers == NULL && categories[i].intent_identifier_count > 0) {
      return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "categories[%zu].intent_identifiers is NULL", i);
    }
    action_total += categories[i].action_count;
  }
  /* One allocation each for the messages, the pointer arrays and the text inputs. */
  Chime__V1__Category *cats = calloc(count > 0 ? count : 1, sizeof *cats);
  Chime__V1__Category **cat_ptrs = calloc(count > 0 ? count : 1, sizeof *cat_ptrs);
  Chime__V1__Action *acts = calloc(action_total > 0 ? action_total : 1, sizeof *acts);
  Chime__V1__Action **act_ptrs = calloc(action_total > 0 ? action_total : 1, sizeof *act_ptrs);
  Chime__V1__TextInput *inputs = calloc(action_total > 0 ? action_total : 1, sizeof *inputs);
  int code;
  if (cats == NULL || cat_ptrs == NULL || acts == NULL || act_ptrs == NULL || inputs == NULL) {
    code = fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  } else {
    size_t a = 0;
    for (size_t i = 0; i < count; i++) {
      const chime_category *from = &categories[i];
      Chime__V1__Category *to = &cats[i];
      chime__v1__category__init(to);
      to->identifier = text_or_empty(from->identifier);
      to->n_actions = from->action_count;
      to->actions = &act_ptrs[a];
      to->n_intent_identifiers = from->intent_identifier_count;
      to->intent_identifiers = (char **)from->intent_identifiers;
      to->hidden_previews_body_placeholder = text_or_empty(from->hidden_previews_body_placeholder);
      to->summary_format = text_or_empty(from->summary_format);
      to->custom_dismiss_action = (from->options & CHIME_CATEGORY_CUSTOM_DISMISS_ACTION) != 0;
      to->hidden_previews_show_title = (from->options & CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE) != 0;
      to->hidden_previews_show_subtitle = (from->options & CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE) != 0;
      for (size_t j = 0; j < from->action_count; j++, a++) {
        const chime_action *action = &from->actions[j];
        Chime__V1__Action *m = &acts[a];
        chime__v1__action__init(m);
        m->identifier = text_or_empty(action->identifier);
        m->title = text_or_empty(action->title);
        m->icon = text_or_empty(action->icon);
        m->authentication_required = (action->options & CHIME_ACTION_AUTHENTICATION_REQUIRED) != 0;
        m->destructive = (action->options & CHIME_ACTION_DESTRUCTIVE) != 0;
        m->foreground = (action->options & CHIME_ACTION_FOREGROUND) != 0;
        if (action->text_input) {
          chime__v1__text_input__init(&inputs[a]);
          inputs[a].button_title = text_or_empty(action->text_input_button_title);
          inputs[a].placeholder = text_or_empty(action->text_input_placeholder);
          m->text_input = &inputs[a];
        }
        act_ptrs[a] = m;
      }
      cat_ptrs[i] = to;
    }
    Chime__V1__SetCategoriesRequest request;
    chime__v1__set_categories_request__init(&request);
    request.n_categories = count;
    request.categories = cat_ptrs;
    ProtobufCMessage *message = NULL;
    code = unary(client, "SetCategories", &request.base, &chime__v1__empty__descriptor, &message, status);
    if (code == CHIME_OK) {
      chime__v1__empty__free_unpacked((Chime__V1__Empty *)message, NULL);
      code = ok(status);
    }
  }
  free(cats);
  free(cat_ptrs);
  free(acts);
  free(act_ptrs);
  free(inputs);
  return code;
}

void chime_category_list_free(chime_category_list *list) {
  if (list == NULL) {
    return;
  }
  for (size_t i = 0; i < list->count; i++) {
    free((void *)list->items[i].actions);
  }
  free(list->items);
  if (list->owner != NULL) {
    chime__v1__get_categories_response__free_unpacked((Chime__V1__GetCategoriesResponse *)list->owner, NULL);
  }
  list->items = NULL;
  list->count = 0;
  list->owner = NULL;
}

int chime_categories(chime_client *client, chime_category_list *out, chime_status *status) {
  if (out == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  out->count = 0;
  out->items = NULL;
  out->owner = NULL;
  Chime__V1__Empty request;
  chime__v1__empty__init(&request);
  ProtobufCMessage *message = NULL;
  int code = unary(client, "GetCategories", &request.base, &chime__v1__get_categories_response__descriptor, &message,
                   status);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__GetCategoriesResponse *response = (Chime__V1__GetCategoriesResponse *)message;
  out->owner = response;
  if (response->n_categories == 0) {
    return ok(status);
  }
  out->items = calloc(response->n_categories, sizeof *out->items);
  if (out->items == NULL) {
    chime_category_list_free(out);
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  for (size_t i = 0; i < response->n_categories; i++) {
    const Chime__V1__Category *from = response->categories[i];
    chime_category *to = &out->items[i];
    out->count = i + 1;
    to->identifier = from->identifier;
    to->intent_identifiers = (const char *const *)from->intent_identifiers;
    to->intent_identifier_count = from->n_intent_identifiers;
    to->hidden_previews_body_placeholder = from->hidden_previews_body_placeholder;
    to->summary_format = from->summary_format;
    to->options = (from->custom_dismiss_action ? CHIME_CATEGORY_CUSTOM_DISMISS_ACTION : 0u) |
                  (from->hidden_previews_show_title ? CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE : 0u) |
                  (from->hidden_previews_show_subtitle ? CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE : 0u);
    if (from->n_actions == 0) {
      continue;
    }
    chime_action *actions = calloc(from->n_actions, sizeof *actions);
    if (actions == NULL) {
      chime_category_list_free(out);
      return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    }
    for (size_t j = 0; j < from->n_actions; j++) {
      const Chime__V1__Action *action = from->actions[j];
      actions[j].identifier = action->identifier;
      actions[j].title = action->title;
      actions[j].icon = action->icon;
      actions[j].options = (action->authentication_required ? CHIME_ACTION_AUTHENTICATION_REQUIRED : 0u) |
                           (action->destructive ? CHIME_ACTION_DESTRUCTIVE : 0u) |
                           (action->foreground ? CHIME_ACTION_FOREGROUND : 0u);
      if (action->text_input != NULL) {
        actions[j].text_input = true;
        actions[j].text_input_button_title = action->text_input->button_title;
        actions[j].text_input_placeholder = action->text_input->placeholder;
      }
    }
    to->actions = actions;
    to->action_count = from->n_actions;
  }
  return ok(status);
}

int chime_respond(chime_client *client, const char *identifier, const char *action, const char *text, bool *removed,
                  chime_status *status) {
  if (identifier == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  if (removed != NULL) {
    *removed = false;
  }
  Chime__V1__NotificationResponse response;
  chime__v1__notification_response__init(&response);
  response.notification_identifier = (char *)identifier;
  response.action_identifier = (char *)(action != NULL ? action : CHIME_DEFAULT_ACTION);
  response.user_text = text_or_empty(text);
  Chime__V1__RespondRequest request;
  chime__v1__respond_request__init(&request);
  request.response = &response;
  ProtobufCMessage *message = NULL;
  int code = unary(client, "Respond", &request.base, &chime__v1__respond_response__descriptor, &message, status);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__RespondResponse *answer = (Chime__V1__RespondResponse *)message;
  if (removed != NULL) {
    *removed = answer->removed;
  }
  chime__v1__respond_response__free_unpacked(answer, NULL);
  return ok(status);
}

/* ---- every rpc ---------------------------------------------------------------------------- */

void chime_message_free(void *message) {
  if (message != NULL) {
    protobuf_c_message_free_unpacked((ProtobufCMessage *)message, NULL);
  }
}

/* A unary call whose answer goes to *out (freed when out is NULL). */
static int typed(chime_client *client, const char *method, const ProtobufCMessage *request,
                 const ProtobufCMessageDescriptor *response_type, void *out, chime_status *status) {
  ProtobufCMessage **slot = out;
  if (slot != NULL) {
    *slot = NULL;
  }
  ProtobufCMessage *message = NULL;
  int code = unary(client, method, request, response_type, &message, status);
  if (code != CHIME_OK) {
    return code;
  }
  if (slot != NULL) {
    *slot = message;
  } else {
    protobuf_c_message_free_unpacked(message, NULL);
  }
  return ok(status);
}

/* Every part of a request built from plain C, on the heap so that the caller's stack stays
 * small; freed with free_built. */
typedef struct built_request {
  Chime__V1__NotificationRequest request;
  Chime__V1__NotificationContent content;
  Chime__V1__Sound sound;
  Chime__V1__Trigger trigger;
  Chime__V1__TimeIntervalTrigger interval;
  Chime__V1__CalendarTrigger calendar;
  Chime__V1__DateComponents components;
  Chime__V1__Attachment *attachments;
  Chime__V1__AttachmentOptions *options;
  Chime__V1__ClipRect *clips;
  Chime__V1__Attachment **attachment_ptrs;
} built_request;

static void free_built(built_request *b) {
  if (b != NULL) {
    free(b->attachments);
    free(b->options);
    free(b->clips);
    free(b->attachment_ptrs);
    free(b);
  }
}

static void build_trigger(built_request *b, const chime_trigger *trigger) {
  chime__v1__trigger__init(&b->trigger);
  if (trigger->kind == CHIME_TRIGGER_INTERVAL) {
    chime__v1__time_interval_trigger__init(&b->interval);
    b->interval.seconds = trigger->seconds;
    b->interval.repeats = trigger->repeats;
    b->trigger.kind_case = CHIME__V1__TRIGGER__KIND_TIME_INTERVAL;
    b->trigger.time_interval = &b->interval;
  } else if (trigger->kind == CHIME_TRIGGER_CALENDAR) {
    const chime_date_components *from = &trigger->calendar;
    Chime__V1__DateComponents *to = &b->components;
    chime__v1__date_components__init(to);
#define COMPONENT(name, NAME)                                  \
  if (from->name != CHIME_UNSET) {                             \
    to->name##_set_case = CHIME__V1__DATE_COMPONENTS__##NAME##_SET_##NAME; \
    to->name = from->name;                                     \
  }
    COMPONENT(year, YEAR)
    COMPONENT(month, MONTH)
    COMPONENT(day, DAY)
    COMPONENT(hour, HOUR)
    COMPONENT(minute, MINUTE)
    COMPONENT(second, SECOND)
    COMPONENT(weekday, WEEKDAY)
    COMPONENT(weekday_ordinal, WEEKDAY_ORDINAL)
    COMPONENT(week_of_month, WEEK_OF_MONTH)
    COMPONENT(week_of_year, WEEK_OF_YEAR)
    COMPONENT(year_for_week_of_year, YEAR_FOR_WEEK_OF_YEAR)
#undef COMPONENT
    to->time_zone = text_or_empty(from->time_zone);
    chime__v1__calendar_trigger__init(&b->calendar);
    b->calendar.components = to;
    b->calendar.repeats = trigger->repeats;
    b->trigger.kind_case = CHIME__V1__TRIGGER__KIND_CALENDAR;
    b->trigger.calendar = &b->calendar;
  }
}

/* NULL with *code set on a bad argument or no memory. */
static built_request *build_request(const char *identifier, const chime_content *content, const chime_trigger *trigger,
                                    chime_status *status, int *code) {
  if (identifier == NULL) {
    *code = fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
    return NULL;
  }
  size_t n = content != NULL ? content->attachment_count : 0;
  if (n > 0 && content->attachments == NULL) {
    *code = fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "attachments is NULL");
    return NULL;
  }
  built_request *b = calloc(1, sizeof *b);
  if (b != NULL && n > 0) {
    b->attachments = calloc(n, sizeof *b->attachments);
    b->options = calloc(n, sizeof *b->options);
    b->clips = calloc(n, sizeof *b->clips);
    b->attachment_ptrs = calloc(n, sizeof *b->attachment_ptrs);
  }
  if (b == NULL || (n > 0 && (b->attachments == NULL || b->options == NULL || b->clips == NULL ||
                              b->attachment_ptrs == NULL))) {
    free_built(b);
    *code = fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    return NULL;
  }
  chime__v1__notification_request__init(&b->request);
  b->request.identifier = (char *)identifier;
  Chime__V1__NotificationContent *c = &b->content;
  chime__v1__notification_content__init(c);
  b->request.content = c;
  if (content != NULL) {
    c->title = text_or_empty(content->title);
    c->subtitle = text_or_empty(content->subtitle);
    c->body = text_or_empty(content->body);
    c->category_identifier = text_or_empty(content->category_identifier);
    c->thread_identifier = text_or_empty(content->thread_identifier);
    c->user_info_json = text_or_empty(content->user_info_json);
    if (content->has_badge) {
      c->badge_set_case = CHIME__V1__NOTIFICATION_CONTENT__BADGE_SET_BADGE;
      c->badge = content->badge;
    }
    c->interruption_level = (Chime__V1__InterruptionLevel)content->interruption_level;
    if (content->sound != NULL) {
      chime__v1__sound__init(&b->sound);
      b->sound.kind = (Chime__V1__SoundKind)content->sound->kind;
      b->sound.name = text_or_empty(content->sound->name);
      if (content->sound->has_volume) {
        b->sound.volume_set_case = CHIME__V1__SOUND__VOLUME_SET_VOLUME;
        b->sound.volume = content->sound->volume;
      }
      c->sound = &b->sound;
    }
    for (size_t i = 0; i < n; i++) {
      const chime_attachment *from = &content->attachments[i];
      Chime__V1__Attachment *to = &b->attachments[i];
      chime__v1__attachment__init(to);
      to->identifier = text_or_empty(from->identifier);
      to->path = text_or_empty(from->path);
      Chime__V1__AttachmentOptions *o = &b->options[i];
      chime__v1__attachment_options__init(o);
      o->type_hint = text_or_empty(from->type_hint);
      o->thumbnail_hidden = from->thumbnail_hidden;
      if (from->has_clipping_rect) {
        chime__v1__clip_rect__init(&b->clips[i]);
        b->clips[i].x = from->clip_x;
        b->clips[i].y = from->clip_y;
        b->clips[i].width = from->clip_width;
        b->clips[i].height = from->clip_height;
        o->clip_set_case = CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT;
        o->thumbnail_clipping_rect = &b->clips[i];
      }
      if (from->has_thumbnail_time) {
        o->time_set_case = CHIME__V1__ATTACHMENT_OPTIONS__TIME_SET_THUMBNAIL_TIME;
        o->thumbnail_time = from->thumbnail_time;
      }
      to->options = o;
      b->attachment_ptrs[i] = to;
    }
    c->n_attachments = n;
    c->attachments = b->attachment_ptrs;
  }
  if (trigger != NULL && trigger->kind != CHIME_TRIGGER_NONE) {
    build_trigger(b, trigger);
    b->request.trigger = &b->trigger;
  }
  return b;
}

int chime_add_request(chime_client *client, const Chime__V1__NotificationRequest *request,
                      Chime__V1__AddResponse **out, chime_status *status) {
  if (request == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "request is NULL");
  }
  Chime__V1__AddRequest add = CHIME__V1__ADD_REQUEST__INIT;
  add.request = (Chime__V1__NotificationRequest *)request;
  return typed(client, "Add", &add.base, &chime__v1__add_response__descriptor, out, status);
}

int chime_add_content(chime_client *client, const char *identifier, const chime_content *content,
                      const chime_trigger *trigger, Chime__V1__AddResponse **out, chime_status *status) {
  if (out != NULL) {
    *out = NULL;
  }
  int code = CHIME_OK;
  built_request *b = build_request(identifier, content, trigger, status, &code);
  if (b == NULL) {
    return code;
  }
  code = chime_add_request(client, &b->request, out, status);
  free_built(b);
  return code;
}

int chime_add_calendar(chime_client *client, const char *identifier, const char *title, const char *body,
                       const chime_date_components *when, bool repeats, int64_t *next_fire_unix_ms,
                       chime_status *status) {
  if (when == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "when is NULL");
  }
  chime_content content = {.title = title, .body = body};
  chime_trigger trigger = {.kind = CHIME_TRIGGER_CALENDAR, .calendar = *when, .repeats = repeats};
  Chime__V1__AddResponse *response = NULL;
  int code = chime_add_content(client, identifier, &content, &trigger, &response, status);
  if (code == CHIME_OK && next_fire_unix_ms != NULL) {
    *next_fire_unix_ms = response->pending != NULL ? response->pending->next_fire_unix_ms : 0;
  }
  chime_message_free(response);
  return code;
}

int chime_pending_page(chime_client *client, uint32_t page_size, const char *page_token,
                       Chime__V1__GetPendingResponse **out, chime_status *status) {
  Chime__V1__PageRequest request = CHIME__V1__PAGE_REQUEST__INIT;
  request.page_size = page_size;
  request.page_token = text_or_empty(page_token);
  return typed(client, "GetPending", &request.base, &chime__v1__get_pending_response__descriptor, out, status);
}

int chime_delivered_page(chime_client *client, uint32_t page_size, const char *page_token,
                         Chime__V1__GetDeliveredResponse **out, chime_status *status) {
  Chime__V1__PageRequest request = CHIME__V1__PAGE_REQUEST__INIT;
  request.page_size = page_size;
  request.page_token = text_or_empty(page_token);
  return typed(client, "GetDelivered", &request.base, &chime__v1__get_delivered_response__descriptor, out, status);
}

int chime_remove_delivered(chime_client *client, const char *const *identifiers, size_t count,
                           chime_id_list *removed, chime_status *status) {
  if (identifiers == NULL && count > 0) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifiers is NULL");
  }
  Chime__V1__IdentifiersRequest request = CHIME__V1__IDENTIFIERS_REQUEST__INIT;
  request.n_identifiers = count;
  request.identifiers = (char **)identifiers;
  return remove_call(client, "RemoveDelivered", &request.base, removed, status);
}

int chime_remove_all_delivered(chime_client *client, chime_id_list *removed, chime_status *status) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return remove_call(client, "RemoveAllDelivered", &request.base, removed, status);
}

int chime_next_trigger_dates(chime_client *client, const chime_trigger *trigger, int64_t after_unix_ms,
                             uint32_t count, Chime__V1__NextTriggerDatesResponse **out, chime_status *status) {
  if (trigger == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "trigger is NULL");
  }
  built_request *b = calloc(1, sizeof *b);
  if (b == NULL) {
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  build_trigger(b, trigger);
  Chime__V1__NextTriggerDatesRequest request = CHIME__V1__NEXT_TRIGGER_DATES_REQUEST__INIT;
  request.trigger = &b->trigger;
  request.after_unix_ms = after_unix_ms;
  request.count = count;
  int code = typed(client, "NextTriggerDates", &request.base, &chime__v1__next_trigger_dates_response__descriptor,
                   out, status);
  free_built(b);
  return code;
}

/* ---- streams ----------------------------------------------------------------------------- */

void chime_subscribe_stop(chime_client *client) {
  if (client != NULL && client->stop_fd >= 0) {
    uint64_t one = 1;
    (void)!write(client->stop_fd, &one, sizeof one);
  }
}

/* Runs a server-streaming call on a connection of its own; see chime_subscribe. */
static int run_stream(chime_client *client, const char *method, const ProtobufCMessage *request,
                      const ProtobufCMessageDescriptor *message_type, int (*callback)(const void *, void *),
                      void *context, chime_status *status) {
  if (client == NULL || callback == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client or callback is NULL");
  }
  chime_client *stream = NULL;
  int code = chime_connect(&stream, client->socket_path, client->app_id, status);
  if (code != CHIME_OK) {
    return code;
  }
  char path[128];
  snprintf(path, sizeof path, "%s%s", SERVICE_PREFIX, method);
  size_t size = protobuf_c_message_get_packed_size(request);
  uint8_t *payload = malloc(size > 0 ? size : 1);
  if (payload == NULL) {
    chime_close(stream);
    return fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
  }
  protobuf_c_message_pack(request, payload);
  Chime__V1__Call call = CHIME__V1__CALL__INIT;
  call.method = path;
  call.app_id = stream->app_id;
  call.payload.data = payload;
  call.payload.len = size;
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = 1;
  frame.kind_case = CHIME__V1__FRAME__KIND_CALL;
  frame.call = &call;
  code = send_frame(stream, &frame, status);
  free(payload);
  while (code == CHIME_OK) {
    uint8_t header[4];
    int error = 0;
    enum read_result result = read_exact_or_stop(stream->fd, client->stop_fd, header, sizeof header, -1, &error);
    if (result == READ_STOPPED) {
      send_cancel(stream, 1);
      code = fail(status, CHIME_CANCELLED, "CANCELLED", "%s stopped by chime_subscribe_stop", method);
      break;
    }
    if (result != READ_OK) {
      code = fail(status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the %s stream", method);
      break;
    }
    size_t length = (size_t)header[0] << 24 | (size_t)header[1] << 16 | (size_t)header[2] << 8 | header[3];
    uint8_t *body = length <= MAX_REPLY_BYTES ? malloc(length > 0 ? length : 1) : NULL;
    if (body == NULL) {
      code = fail(status, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE", "cannot take a %zu-byte frame", length);
      break;
    }
    result = read_exact(stream->fd, body, length, -1, &error);
    Chime__V1__Frame *answer = result == READ_OK ? chime__v1__frame__unpack(NULL, length, body) : NULL;
    free(body);
    if (answer == NULL || answer->kind_case != CHIME__V1__FRAME__KIND_REPLY || answer->reply == NULL) {
      chime_message_free(answer);
      code = fail(status, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "the %s stream broke", method);
      break;
    }
    const Chime__V1__Reply *reply = answer->reply;
    if (reply->status != NULL && reply->status->code != CHIME_OK) {
      code = from_wire_status(status, reply->status);
      chime_message_free(answer);
      break;
    }
    bool stop = false;
    if (answer->call_id == 1 && reply->payload.len > 0) {
      ProtobufCMessage *event = protobuf_c_message_unpack(message_type, NULL, reply->payload.len, reply->payload.data);
      if (event == NULL) {
        chime_message_free(answer);
        code = fail(status, CHIME_INTERNAL, "MALFORMED_REPLY", "an event of %s is not a %s", method, message_type->name);
        break;
      }
      stop = callback(event, context) != 0;
      protobuf_c_message_free_unpacked(event, NULL);
    }
    bool ended = answer->call_id == 1 && reply->end_of_stream;
    if (answer->call_id == 0) {
      ended = true; /* a connection-level status without an error */
    }
    chime_message_free(answer);
    if (stop) {
      send_cancel(stream, 1);
      code = ok(status);
      break;
    }
    if (ended) {
      code = ok(status);
      break;
    }
  }
  chime_close(stream);
  return code;
}

/* Adapters from the typed callbacks to run_stream's. */
typedef struct event_adapter {
  chime_event_callback event;
  chime_extension_callback extension;
  void *context;
} event_adapter;

static int call_event(const void *message, void *context) {
  const event_adapter *a = context;
  return a->event((const Chime__V1__Event *)message, a->context);
}

static int call_extension_event(const void *message, void *context) {
  const event_adapter *a = context;
  return a->extension((const Chime__V1__ExtensionEvent *)message, a->context);
}

int chime_subscribe(chime_client *client, const uint64_t *after_cursor, chime_event_callback callback, void *context,
                    chime_status *status) {
  if (callback == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "callback is NULL");
  }
  Chime__V1__SubscribeRequest request = CHIME__V1__SUBSCRIBE_REQUEST__INIT;
  if (after_cursor != NULL) {
    request.resume_case = CHIME__V1__SUBSCRIBE_REQUEST__RESUME_AFTER_CURSOR;
    request.after_cursor = *after_cursor;
  }
  event_adapter adapter = {.event = callback, .context = context};
  return run_stream(client, "Subscribe", &request.base, &chime__v1__event__descriptor, call_event, &adapter, status);
}

int chime_register_extension(chime_client *client, const Chime__V1__RegisterExtensionRequest *request,
                             chime_extension_callback callback, void *context, chime_status *status) {
  if (callback == NULL || request == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "request or callback is NULL");
  }
  event_adapter adapter = {.extension = callback, .context = context};
  return run_stream(client, "RegisterExtension", &request->base, &chime__v1__extension_event__descriptor,
                    call_extension_event, &adapter, status);
}

/* ---- extensions, push, media ------------------------------------------------------------- */

int chime_answer_response(chime_client *client, const char *extension_identifier, uint64_t response_id, int option,
                          chime_status *status) {
  Chime__V1__AnswerResponseRequest request = CHIME__V1__ANSWER_RESPONSE_REQUEST__INIT;
  request.extension_identifier = text_or_empty(extension_identifier);
  request.response_id = response_id;
  request.option = (Chime__V1__ExtensionResponseOption)option;
  return typed(client, "AnswerResponse", &request.base, &chime__v1__empty__descriptor, NULL, status);
}

int chime_press_media_button(chime_client *client, const char *notification_identifier, int command,
                             char **extension_identifier, chime_status *status) {
  if (extension_identifier != NULL) {
    *extension_identifier = NULL;
  }
  Chime__V1__PressMediaButtonRequest request = CHIME__V1__PRESS_MEDIA_BUTTON_REQUEST__INIT;
  request.notification_identifier = text_or_empty(notification_identifier);
  request.command = (Chime__V1__MediaCommand)command;
  Chime__V1__PressMediaButtonResponse *response = NULL;
  int code = typed(client, "PressMediaButton", &request.base, &chime__v1__press_media_button_response__descriptor,
                   &response, status);
  if (code == CHIME_OK && extension_identifier != NULL) {
    *extension_identifier = strdup(response->extension_identifier);
    if (*extension_identifier == NULL) {
      code = fail(status, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    }
  }
  chime_message_free(response);
  return code;
}

int chime_report_media_playback(chime_client *client, const char *extension_identifier,
                                const char *notification_identifier, int playback, chime_status *status) {
  Chime__V1__ReportMediaPlaybackRequest request = CHIME__V1__REPORT_MEDIA_PLAYBACK_REQUEST__INIT;
  request.extension_identifier = text_or_empty(extension_identifier);
  request.notification_identifier = text_or_empty(notification_identifier);
  request.playback = (Chime__V1__MediaPlayback)playback;
  return typed(client, "ReportMediaPlayback", &request.base, &chime__v1__empty__descriptor, NULL, status);
}

int chime_push(chime_client *client, const char *payload_json, const char *identifier, Chime__V1__PushResponse **out,
               chime_status *status) {
  if (payload_json == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "payload_json is NULL");
  }
  Chime__V1__PushRequest request = CHIME__V1__PUSH_REQUEST__INIT;
  request.payload.data = (uint8_t *)payload_json;
  request.payload.len = strlen(payload_json);
  request.identifier = text_or_empty(identifier);
  return typed(client, "Push", &request.base, &chime__v1__push_response__descriptor, out, status);
}

int chime_answer_service(chime_client *client, const char *extension_identifier, uint64_t request_id,
                         const Chime__V1__NotificationContent *content, const char *error, chime_status *status) {
  Chime__V1__AnswerServiceRequest request = CHIME__V1__ANSWER_SERVICE_REQUEST__INIT;
  request.extension_identifier = text_or_empty(extension_identifier);
  request.request_id = request_id;
  request.content = (Chime__V1__NotificationContent *)content;
  request.error = text_or_empty(error);
  return typed(client, "AnswerService", &request.base, &chime__v1__empty__descriptor, NULL, status);
}

/* ---- authorization and settings ---------------------------------------------------------- */

int chime_request_authorization(chime_client *client, const Chime__V1__AuthorizationRequest *options,
                                Chime__V1__AuthorizationResponse **out, chime_status *status) {
  Chime__V1__AuthorizationRequest none = CHIME__V1__AUTHORIZATION_REQUEST__INIT;
  return typed(client, "RequestAuthorization", options != NULL ? &options->base : &none.base,
               &chime__v1__authorization_response__descriptor, out, status);
}

int chime_get_settings(chime_client *client, Chime__V1__NotificationSettings **out, chime_status *status) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return typed(client, "GetSettings", &request.base, &chime__v1__notification_settings__descriptor, out, status);
}

int chime_set_badge_count(chime_client *client, int64_t count, chime_status *status) {
  Chime__V1__SetBadgeCountRequest request = CHIME__V1__SET_BADGE_COUNT_REQUEST__INIT;
  request.count = count;
  return typed(client, "SetBadgeCount", &request.base, &chime__v1__empty__descriptor, NULL, status);
}

int chime_set_app_settings(chime_client *client, const Chime__V1__AppSettingsRequest *request,
                           Chime__V1__NotificationSettings **out, chime_status *status) {
  if (request == NULL) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "request is NULL");
  }
  return typed(client, "SetAppSettings", &request->base, &chime__v1__notification_settings__descriptor, out, status);
}

/* ---- apps and sounds --------------------------------------------------------------------- */

int chime_register_app(chime_client *client, const char *container, const char *const *group_containers,
                       size_t group_container_count, const char *bundle, const char *display_name,
                       const char *desktop_entry, Chime__V1__AppLayout **out, chime_status *status) {
  if (group_containers == NULL && group_container_count > 0) {
    return fail(status, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "group_containers is NULL");
  }
  Chime__V1__RegisterAppRequest request = CHIME__V1__REGISTER_APP_REQUEST__INIT;
  request.container = text_or_empty(container);
  request.n_group_containers = group_container_count;
  request.group_containers = (char **)group_containers;
  request.bundle = text_or_empty(bundle);
  request.display_name = text_or_empty(display_name);
  request.desktop_entry = text_or_empty(desktop_entry);
  return typed(client, "RegisterApp", &request.base, &chime__v1__app_layout__descriptor, out, status);
}

int chime_get_app(chime_client *client, Chime__V1__AppLayout **out, chime_status *status) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return typed(client, "GetApp", &request.base, &chime__v1__app_layout__descriptor, out, status);
}

int chime_get_server_info(chime_client *client, Chime__V1__ServerInfo **out, chime_status *status) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return typed(client, "GetServerInfo", &request.base, &chime__v1__server_info__descriptor, out, status);
}

int chime_list_apps(chime_client *client, Chime__V1__ListAppsResponse **out, chime_status *status) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return typed(client, "ListApps", &request.base, &chime__v1__list_apps_response__descriptor, out, status);
}

int chime_check_sound(chime_client *client, const char *name, Chime__V1__CheckSoundResponse **out,
                      chime_status *status) {
  Chime__V1__CheckSoundRequest request = CHIME__V1__CHECK_SOUND_REQUEST__INIT;
  request.name = text_or_empty(name);
  return typed(client, "CheckSound", &request.base, &chime__v1__check_sound_response__descriptor, out, status);
}
