/* libchime-client: the connection's state machine. Frames to send are queued and written
 * without blocking; bytes read are kept until a whole frame is there, which is then dispatched
 * to the call waiting for it by call id. chime_process is one turn of it for an application's
 * loop; the blocking chime_call is a loop of poll(2) and the same turn (src/call.c). */
#define _GNU_SOURCE /* MSG_NOSIGNAL, MSG_DONTWAIT */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "chime-private.h"

/* Buffers grown past this for one large frame are released once it is handled. */
#define KEEP_BUFFER_BYTES (64u << 10)
/* Frames one turn dispatches at most, so a busy stream cannot starve the application's loop.
 * What is left stays in the socket (reads never go past a frame), so the fd stays readable and
 * a level-triggered loop comes back for it. */
#define FRAMES_PER_TURN 64

uint64_t chimei_next_call_id(chime_client *client) {
  uint64_t id = client->next_call_id++;
  if (client->next_call_id == 0) {
    client->next_call_id = 1; /* 0 is the connection's own status */
  }
  return id;
}

void chimei_op_link(chime_client *client, chimei_op *op) {
  op->client = client;
  op->next = client->ops;
  client->ops = op;
}

void chimei_op_unlink(chime_client *client, chimei_op *op) {
  for (chimei_op **at = &client->ops; *at != NULL; at = &(*at)->next) {
    if (*at == op) {
      *at = op->next;
      break;
    }
  }
  op->next = NULL;
}

static chimei_op *find_op(chime_client *client, uint64_t call_id) {
  for (chimei_op *op = client->ops; op != NULL; op = op->next) {
    if (op->call_id == call_id) {
      return op;
    }
  }
  return NULL;
}

int chimei_queue_frame(chime_client *client, const Chime__V1__Frame *frame, chime_error *error) {
  size_t size = chime__v1__frame__get_packed_size(frame);
  if (size > CHIMEI_MAX_CALL_BYTES) {
    return chimei_fail(error, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE", "the call is %zu bytes; the limit is %u",
                       size, CHIMEI_MAX_CALL_BYTES);
  }
  size_t pending = client->out_len - client->out_sent;
  if (pending + 4 + size > CHIMEI_MAX_QUEUED_BYTES) {
    return chimei_fail(error, CHIME_RESOURCE_EXHAUSTED, "QUEUE_FULL",
                       "%zu bytes are already queued for chimed; the limit is %u", pending, CHIMEI_MAX_QUEUED_BYTES);
  }
  /* Drop what was written before growing, so the buffer holds only what is still to send. */
  if (client->out_sent > 0) {
    memmove(client->out, client->out + client->out_sent, pending);
    client->out_len = pending;
    client->out_sent = 0;
  }
  if (client->out_len + 4 + size > client->out_cap) {
    size_t cap = client->out_len + 4 + size;
    uint8_t *grown = realloc(client->out, cap);
    if (grown == NULL) {
      return chimei_oom(error);
    }
    client->out = grown;
    client->out_cap = cap;
  }
  uint8_t *at = client->out + client->out_len;
  at[0] = (uint8_t)(size >> 24);
  at[1] = (uint8_t)(size >> 16);
  at[2] = (uint8_t)(size >> 8);
  at[3] = (uint8_t)size;
  chime__v1__frame__pack(frame, at + 4);
  client->out_len += 4 + size;
  return CHIME_OK;
}

void chimei_queue_cancel(chime_client *client, uint64_t call_id) {
  if (client->broken) {
    return;
  }
  Chime__V1__Cancel cancel = CHIME__V1__CANCEL__INIT;
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = call_id;
  frame.kind_case = CHIME__V1__FRAME__KIND_CANCEL;
  frame.cancel = &cancel;
  (void)chimei_queue_frame(client, &frame, NULL); /* best effort: the reply is ignored anyway */
}

/* A subscription's end: out of the client's list, its on_done told. */
static void end_subscription(chime_client *client, chimei_op *op, int code, const chime_error *why) {
  chimei_op_unlink(client, op);
  op->client = NULL;
  if (op->on_done != NULL) {
    op->on_done(code, why, op->context);
  }
}

/* An asynchronous call's end: out of the list, `finish` told, freed. */
static void end_async(chime_client *client, chimei_op *op, int code, const chime_error *why,
                      const Chime__V1__Reply *reply) {
  chimei_op_unlink(client, op);
  op->finish(op, code, why, reply);
  free(op);
}

void chimei_fail_all(chime_client *client, const chime_error *why) {
  while (client->ops != NULL) {
    chimei_op *op = client->ops;
    switch (op->kind) {
    case CHIMEI_OP_SYNC:
      chimei_op_unlink(client, op);
      op->failure = *why;
      op->done = true;
      break;
    case CHIMEI_OP_ASYNC:
      end_async(client, op, why->code, why, NULL);
      break;
    case CHIMEI_OP_SUBSCRIPTION:
      end_subscription(client, op, why->code, why);
      break;
    }
  }
}

/* Hands one message of a stream to its callback, and ends the stream when asked. */
static void deliver_message(chime_client *client, chimei_op *op, const Chime__V1__Reply *reply) {
  ProtobufCMessage *message =
      protobuf_c_message_unpack(op->message_type, NULL, reply->payload.len, reply->payload.data);
  if (message == NULL) {
    chime_error why;
    chimei_fail(&why, CHIME_INTERNAL, "MALFORMED_REPLY", "a message of %s is not a %s", op->method,
                op->message_type->name);
    chimei_queue_cancel(client, op->call_id);
    end_subscription(client, op, why.code, &why);
    return;
  }
  /* The callback may cancel (free) this very stream: dispatching defers the free. */
  op->dispatching++;
  int stop = op->on_message(op, message);
  op->dispatching--;
  protobuf_c_message_free_unpacked(message, NULL);
  if (op->cancelled && op->dispatching == 0) {
    free(op);
    return;
  }
  if (stop != 0 && op->client != NULL) {
    chimei_queue_cancel(client, op->call_id);
    chime_error ok;
    chimei_ok(&ok);
    end_subscription(client, op, CHIME_OK, &ok);
  }
}

/* Routes one whole frame read from the connection; takes ownership of it. */
static void dispatch(chime_client *client, Chime__V1__Frame *frame) {
  if (frame->kind_case != CHIME__V1__FRAME__KIND_REPLY || frame->reply == NULL) {
    chime__v1__frame__free_unpacked(frame, NULL);
    (void)chimei_fail_connection(client, NULL, CHIME_INTERNAL, "MALFORMED_REPLY",
                                 "chimed sent a frame that is not a reply");
    return;
  }
  const Chime__V1__Reply *reply = frame->reply;
  if (frame->call_id == 0) {
    /* Connection-level status (framing error, refused peer, shutdown); the daemon hangs up. */
    chime_error why;
    if (reply->status != NULL && reply->status->code != CHIME_OK) {
      chimei_from_wire(&why, reply->status);
    } else {
      /* A goodbye without an error: the subscriptions end cleanly (as a blocking chime_subscribe
       * always did); calls still waiting for an answer get none and fail below. */
      chime_error ok;
      chimei_ok(&ok);
      for (chimei_op *op = client->ops; op != NULL;) {
        chimei_op *next = op->next;
        if (op->kind == CHIMEI_OP_SUBSCRIPTION) {
          end_subscription(client, op, CHIME_OK, &ok);
          next = client->ops; /* its on_done may have changed the list: start over */
        }
        op = next;
      }
      chimei_fail(&why, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the connection");
    }
    chime__v1__frame__free_unpacked(frame, NULL);
    (void)chimei_break(client, NULL, &why);
    return;
  }
  chimei_op *op = find_op(client, frame->call_id);
  bool failed = reply->status != NULL && reply->status->code != CHIME_OK;
  if (op == NULL) {
    chime__v1__frame__free_unpacked(frame, NULL); /* a call given up on, or cancelled */
    return;
  }
  switch (op->kind) {
  case CHIMEI_OP_SYNC:
    if (reply->end_of_stream || failed) {
      chimei_op_unlink(client, op);
      op->answer = frame; /* chime_call reads and frees it */
      op->done = true;
      return;
    }
    break;
  case CHIMEI_OP_ASYNC:
    if (reply->end_of_stream || failed) {
      if (failed) {
        chime_error why;
        int code = chimei_from_wire(&why, reply->status);
        end_async(client, op, code, &why, NULL);
      } else {
        chime_error ok;
        chimei_ok(&ok);
        end_async(client, op, CHIME_OK, &ok, reply);
      }
    }
    break;
  case CHIMEI_OP_SUBSCRIPTION:
    if (failed) {
      chime_error why;
      int code = chimei_from_wire(&why, reply->status);
      end_subscription(client, op, code, &why);
      break;
    }
    if (reply->payload.len > 0) {
      deliver_message(client, op, reply);
      /* The op may be gone now (cancelled or ended): look it up again. */
      op = find_op(client, frame->call_id);
    }
    if (op != NULL && reply->end_of_stream) {
      chime_error ok;
      chimei_ok(&ok);
      end_subscription(client, op, CHIME_OK, &ok);
    }
    break;
  }
  chime__v1__frame__free_unpacked(frame, NULL);
}

/* Writes queued bytes until done or the socket is full. 1 if it wrote, 0 if not. */
static int flush_out(chime_client *client) {
  int progress = 0;
  while (!client->broken && client->out_sent < client->out_len) {
    ssize_t n = send(client->fd, client->out + client->out_sent, client->out_len - client->out_sent,
                     MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        break;
      }
      (void)chimei_fail_connection(client, NULL, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                   "cannot write to chimed: %s", strerror(errno));
      break;
    }
    client->out_sent += (size_t)n;
    progress = 1;
  }
  if (client->out_sent == client->out_len) {
    client->out_len = client->out_sent = 0;
    if (client->out_cap > KEEP_BUFFER_BYTES) {
      free(client->out);
      client->out = NULL;
      client->out_cap = 0;
    }
  }
  return progress;
}

/* Reads what the socket holds, one frame at a time (never past the frame being read, so the
 * buffer is at most one frame: 4 + CHIMEI_MAX_REPLY_BYTES), dispatching each whole frame.
 * 1 if it read anything, 0 if not. */
static int read_in(chime_client *client) {
  int progress = 0;
  int frames = 0;
  while (!client->broken && frames < FRAMES_PER_TURN) {
    size_t want = 4;
    if (client->in_len >= 4) {
      const uint8_t *h = client->in;
      size_t body = (size_t)h[0] << 24 | (size_t)h[1] << 16 | (size_t)h[2] << 8 | h[3];
      if (body > CHIMEI_MAX_REPLY_BYTES) {
        (void)chimei_fail_connection(client, NULL, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE",
                                     "chimed sent a frame over the limit of %u bytes", CHIMEI_MAX_REPLY_BYTES);
        break;
      }
      want = 4 + body;
    }
    if (client->in_len == want) {
      /* A whole frame: take it out of the buffer before dispatching, so a callback that makes
       * a blocking call (which reads on) starts from a clean buffer. */
      Chime__V1__Frame *frame = chime__v1__frame__unpack(NULL, want - 4, client->in + 4);
      client->in_len = 0;
      if (client->in_cap > KEEP_BUFFER_BYTES) {
        free(client->in);
        client->in = NULL;
        client->in_cap = 0;
      }
      if (frame == NULL) {
        (void)chimei_fail_connection(client, NULL, CHIME_INTERNAL, "MALFORMED_REPLY",
                                     "chimed sent a frame that does not decode");
        break;
      }
      dispatch(client, frame);
      progress = 1;
      frames++;
      continue;
    }
    if (want > client->in_cap) {
      size_t cap = want < 4096 ? 4096 : want;
      uint8_t *grown = realloc(client->in, cap);
      if (grown == NULL) {
        (void)chimei_fail_connection(client, NULL, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
        break;
      }
      client->in = grown;
      client->in_cap = cap;
    }
    ssize_t n = recv(client->fd, client->in + client->in_len, want - client->in_len, MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        (void)chimei_fail_connection(client, NULL, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                     "cannot read from chimed: %s", strerror(errno));
      }
      break;
    }
    if (n == 0) {
      if (client->in_len > 0) {
        (void)chimei_fail_connection(client, NULL, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                     "chimed closed the connection in the middle of a frame");
      } else {
        (void)chimei_fail_connection(client, NULL, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                     "chimed closed the connection");
      }
      break;
    }
    client->in_len += (size_t)n;
    progress = 1;
  }
  return progress;
}

/* Fails the asynchronous calls past their deadline (each sends its Cancel). */
static int expire(chime_client *client) {
  int progress = 0;
  int64_t now = chimei_monotonic_ms();
  for (;;) {
    chimei_op *late = NULL;
    for (chimei_op *op = client->ops; op != NULL; op = op->next) {
      if (op->kind == CHIMEI_OP_ASYNC && op->deadline_ms >= 0 && op->deadline_ms <= now) {
        late = op;
        break;
      }
    }
    if (late == NULL) {
      return progress;
    }
    chimei_queue_cancel(client, late->call_id);
    chime_error why;
    chimei_fail(&why, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "no answer to %s within %d ms", late->method,
                late->timeout_ms);
    end_async(client, late, why.code, &why, NULL);
    progress = 1;
  }
}

int chimei_pump(chime_client *client) {
  int progress = flush_out(client);
  progress |= read_in(client);
  if (!client->broken) {
    progress |= expire(client);
    progress |= flush_out(client); /* the Cancels and whatever the callbacks started */
  }
  return progress;
}

int chime_get_fd(const chime_client *client) { return client != NULL ? client->fd : -1; }

int chime_get_events(const chime_client *client) {
  if (client == NULL || client->broken) {
    return 0;
  }
  return POLLIN | (client->out_sent < client->out_len ? POLLOUT : 0);
}

int chime_get_timeout(const chime_client *client, uint64_t *usec) {
  if (client == NULL || usec == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  int64_t earliest = -1;
  for (const chimei_op *op = client->ops; op != NULL; op = op->next) {
    if (op->kind == CHIMEI_OP_ASYNC && op->deadline_ms >= 0 && (earliest < 0 || op->deadline_ms < earliest)) {
      earliest = op->deadline_ms;
    }
  }
  *usec = earliest < 0 ? UINT64_MAX : (uint64_t)earliest * 1000u;
  return CHIME_OK;
}

int chime_process(chime_client *client, chime_error *error) {
  if (client == NULL) {
    return -chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client is NULL");
  }
  int progress = client->broken ? 0 : chimei_pump(client);
  if (client->broken) {
    if (error != NULL) {
      *error = client->broken_error;
    }
    return -client->broken_error.code;
  }
  chimei_ok(error);
  return progress;
}

/* ---- asynchronous calls ---- */

/* Queues a Call frame for `method` (a NotificationCenter method name or a full path) with a
 * new call id; fills op->call_id and op->method. */
static int queue_call(chime_client *client, chimei_op *op, const char *method, const uint8_t *payload,
                      size_t payload_len, bool with_deadline, chime_error *error) {
  if (client->broken) {
    if (error != NULL) {
      *error = client->broken_error;
    }
    return client->broken_error.code;
  }
  int n = snprintf(op->method, sizeof op->method, "%s%s", method[0] == '/' ? "" : CHIMEI_SERVICE_PREFIX, method);
  if (n < 0 || (size_t)n >= sizeof op->method) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "method name is too long");
  }
  Chime__V1__Call call = CHIME__V1__CALL__INIT;
  call.method = op->method;
  call.app_id = client->app_id;
  call.payload.data = (uint8_t *)payload;
  call.payload.len = payload_len;
  op->deadline_ms = -1;
  if (with_deadline && client->timeout_ms >= 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    call.deadline_unix_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + client->timeout_ms;
    op->deadline_ms = chimei_monotonic_ms() + client->timeout_ms;
    op->timeout_ms = client->timeout_ms;
  }
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = chimei_next_call_id(client);
  frame.kind_case = CHIME__V1__FRAME__KIND_CALL;
  frame.call = &call;
  int code = chimei_queue_frame(client, &frame, error);
  if (code == CHIME_OK) {
    op->call_id = frame.call_id;
  }
  return code;
}

static int start_bytes(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
                       void (*finish)(chimei_op *, int, const chime_error *, const Chime__V1__Reply *),
                       void (*user)(void), void *context, chime_error *error) {
  chimei_op *op = calloc(1, sizeof *op);
  if (op == NULL) {
    return chimei_oom(error);
  }
  op->kind = CHIMEI_OP_ASYNC;
  op->finish = finish;
  op->user = user;
  op->context = context;
  int code = queue_call(client, op, method, payload, payload_len, true, error);
  if (code != CHIME_OK) {
    free(op);
    return code;
  }
  chimei_op_link(client, op);
  return chimei_ok(error);
}

int chimei_start_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                      void (*finish)(chimei_op *, int, const chime_error *, const Chime__V1__Reply *),
                      void (*user)(void), void *context, chime_error *error) {
  size_t size = protobuf_c_message_get_packed_size(request);
  uint8_t *payload = malloc(size > 0 ? size : 1);
  if (payload == NULL) {
    return chimei_oom(error);
  }
  protobuf_c_message_pack(request, payload);
  int code = start_bytes(client, method, payload, size, finish, user, context, error);
  free(payload); /* the frame on the queue holds its own copy */
  return code;
}

static void finish_bytes(chimei_op *op, int code, const chime_error *error, const Chime__V1__Reply *reply) {
  chime_reply_callback callback = (chime_reply_callback)op->user;
  callback(code, error, reply != NULL ? reply->payload.data : NULL, reply != NULL ? reply->payload.len : 0,
           op->context);
}

int chime_call_start(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
                     chime_reply_callback callback, void *context, chime_error *error) {
  if (client == NULL || method == NULL || callback == NULL || (payload == NULL && payload_len > 0)) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client, method, payload or callback is NULL");
  }
  return start_bytes(client, method, payload, payload_len, finish_bytes, (void (*)(void))callback, context, error);
}

/* ---- subscriptions ---- */

int chimei_stream_start(chime_client *client, const char *method, const ProtobufCMessage *request,
                        const ProtobufCMessageDescriptor *message_type,
                        int (*on_message)(chimei_op *op, const ProtobufCMessage *message), chime_done_callback on_done,
                        void *context, chimei_op **out, chime_error *error) {
  *out = NULL;
  size_t size = protobuf_c_message_get_packed_size(request);
  uint8_t *payload = malloc(size > 0 ? size : 1);
  chimei_op *op = calloc(1, sizeof *op);
  if (payload == NULL || op == NULL) {
    free(payload);
    free(op);
    return chimei_oom(error);
  }
  protobuf_c_message_pack(request, payload);
  op->kind = CHIMEI_OP_SUBSCRIPTION;
  op->message_type = message_type;
  op->on_message = on_message;
  op->on_done = on_done;
  op->context = context;
  int code = queue_call(client, op, method, payload, size, false, error);
  free(payload); /* the queued frame holds its own copy */
  if (code != CHIME_OK) {
    free(op);
    return code;
  }
  chimei_op_link(client, op);
  *out = op;
  return chimei_ok(error);
}

/* A Subscribe stream's message as the chime_event its callback reads. */
static int subscribe_message(chimei_op *op, const ProtobufCMessage *message) {
  chime_event event = {.message = (const Chime__V1__Event *)message};
  if (event.message->delivered != NULL) {
    chimei_notification_of_delivered(&event.notification, event.message->delivered);
    event.has_notification = true;
  } else if (event.message->pending != NULL) {
    chimei_notification_of_pending(&event.notification, event.message->pending);
    event.has_notification = true;
  }
  return op->on_event(&event, op->context);
}

int chime_subscribe_start(chime_client *client, const uint64_t *after_cursor, chime_event_callback on_event,
                          chime_done_callback on_done, void *context, chime_subscription **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (client == NULL || on_event == NULL || out == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client, on_event or out is NULL");
  }
  Chime__V1__SubscribeRequest request = CHIME__V1__SUBSCRIBE_REQUEST__INIT;
  if (after_cursor != NULL) {
    request.resume_case = CHIME__V1__SUBSCRIBE_REQUEST__RESUME_AFTER_CURSOR;
    request.after_cursor = *after_cursor;
  }
  chimei_op *op = NULL;
  int code = chimei_stream_start(client, "Subscribe", &request.base, &chime__v1__event__descriptor, subscribe_message,
                                 on_done, context, &op, error);
  if (code == CHIME_OK) {
    op->on_event = on_event;
    *out = op;
  }
  return code;
}

void chime_subscription_cancel(chime_subscription *subscription) {
  if (subscription == NULL) {
    return;
  }
  chime_client *client = subscription->client;
  if (client != NULL) {
    chimei_queue_cancel(client, subscription->call_id);
    chimei_op_unlink(client, subscription);
    subscription->client = NULL;
    (void)flush_out(client); /* tell the daemon now if the socket takes it */
  }
  if (subscription->dispatching > 0) {
    subscription->cancelled = true; /* inside its own callback: freed when it returns */
  } else {
    free(subscription);
  }
}

bool chime_subscription_active(const chime_subscription *subscription) {
  return subscription != NULL && subscription->client != NULL;
}
