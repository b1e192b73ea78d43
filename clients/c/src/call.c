/* libchime-client: unary calls. Each call carries its deadline (the client's timeout from now)
 * in the frame and waits for its final reply at most that long. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chime-private.h"

/*
 * Waits for `op` (linked, its call queued) to be done: a loop of poll(2) on the connection and
 * one turn of the state machine (chimei_pump), which also dispatches what arrives for the
 * client's other calls and subscriptions. On success *out is the final reply frame.
 */
static int await_reply(chime_client *client, chimei_op *op, Chime__V1__Frame **out, chime_error *error) {
  int64_t deadline = client->timeout_ms < 0 ? -1 : chimei_monotonic_ms() + client->timeout_ms;
  while (!op->done) {
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - chimei_monotonic_ms();
      if (left <= 0) {
        /* Given up: the Cancel is queued and a late reply is dropped (its call id is unknown by
         * then). A frame half read stays buffered, so the connection stays usable. */
        chimei_op_unlink(client, op);
        chimei_queue_cancel(client, op->call_id);
        (void)chimei_pump(client);
        return chimei_fail(error, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "no answer to %s within %d ms",
                           op->method, client->timeout_ms);
      }
      wait = left > 60000 ? 60000 : (int)left;
    }
    /* Wake for the asynchronous calls' deadlines too, so they expire on time meanwhile. */
    uint64_t other = UINT64_MAX;
    (void)chime_get_timeout(client, &other);
    if (other != UINT64_MAX) {
      int64_t left = (int64_t)(other / 1000u) - chimei_monotonic_ms();
      int until = left <= 0 ? 0 : (left > 60000 ? 60000 : (int)left + 1);
      wait = wait < 0 || until < wait ? until : wait;
    }
    struct pollfd poller = {.fd = client->fd, .events = (short)chime_get_events(client), .revents = 0};
    int ready = poll(&poller, 1, wait);
    if (ready < 0 && errno != EINTR) {
      return chimei_fail_connection(client, error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "cannot poll chimed: %s",
                                    strerror(errno));
    }
    (void)chimei_pump(client); /* a broken connection marks op done with the failure */
  }
  if (op->answer == NULL) {
    if (error != NULL) {
      *error = op->failure;
    }
    return op->failure.code;
  }
  *out = op->answer;
  return CHIME_OK;
}

int chime_call(chime_client *client, const char *method, const uint8_t *payload, size_t payload_len,
               uint8_t **reply, size_t *reply_len, chime_error *error) {
  if (reply != NULL) {
    *reply = NULL;
  }
  if (reply_len != NULL) {
    *reply_len = 0;
  }
  if (client == NULL || method == NULL || (payload == NULL && payload_len > 0)) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client, method or payload is NULL");
  }
  if (client->broken) {
    if (error != NULL) {
      *error = client->broken_error;
    }
    return client->broken_error.code;
  }
  chimei_op op;
  memset(&op, 0, sizeof op);
  op.kind = CHIMEI_OP_SYNC;
  int n = snprintf(op.method, sizeof op.method, "%s%s", method[0] == '/' ? "" : CHIMEI_SERVICE_PREFIX, method);
  if (n < 0 || (size_t)n >= sizeof op.method) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "method name is too long");
  }

  Chime__V1__Call call = CHIME__V1__CALL__INIT;
  call.method = op.method;
  call.app_id = client->app_id;
  call.payload.data = (uint8_t *)payload;
  call.payload.len = payload_len;
  if (client->timeout_ms >= 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    call.deadline_unix_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + client->timeout_ms;
  }
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = chimei_next_call_id(client);
  frame.kind_case = CHIME__V1__FRAME__KIND_CALL;
  frame.call = &call;
  int code = chimei_queue_frame(client, &frame, error);
  if (code != CHIME_OK) {
    return code;
  }
  op.call_id = frame.call_id;
  op.deadline_ms = -1; /* the wait below has its own; chime_get_timeout covers async calls only */
  chimei_op_link(client, &op);

  Chime__V1__Frame *answer = NULL;
  code = await_reply(client, &op, &answer, error);
  if (code != CHIME_OK) {
    return code;
  }
  const Chime__V1__Reply *r = answer->reply;
  if (r->status != NULL && r->status->code != CHIME_OK) {
    code = chimei_from_wire(error, r->status);
    chime__v1__frame__free_unpacked(answer, NULL);
    return code;
  }
  if (reply != NULL && r->payload.len > 0) {
    *reply = malloc(r->payload.len);
    if (*reply == NULL) {
      chime__v1__frame__free_unpacked(answer, NULL);
      return chimei_oom(error);
    }
    memcpy(*reply, r->payload.data, r->payload.len);
  }
  if (reply_len != NULL) {
    *reply_len = r->payload.len;
  }
  chime__v1__frame__free_unpacked(answer, NULL);
  return chimei_ok(error);
}

int chimei_unary(chime_client *client, const char *method, const ProtobufCMessage *request,
                 const ProtobufCMessageDescriptor *response_type, ProtobufCMessage **response, chime_error *error) {
  *response = NULL;
  size_t size = protobuf_c_message_get_packed_size(request);
  uint8_t *payload = malloc(size > 0 ? size : 1);
  if (payload == NULL) {
    return chimei_oom(error);
  }
  protobuf_c_message_pack(request, payload);
  uint8_t *answer = NULL;
  size_t answer_len = 0;
  int code = chime_call(client, method, payload, size, &answer, &answer_len, error);
  free(payload);
  if (code != CHIME_OK) {
    return code;
  }
  static const uint8_t empty[1] = {0};
  *response = protobuf_c_message_unpack(response_type, NULL, answer_len, answer != NULL ? answer : empty);
  free(answer);
  if (*response == NULL) {
    return chimei_fail(error, CHIME_INTERNAL, "MALFORMED_REPLY", "the answer to %s is not a %s", method,
                       response_type->name);
  }
  return CHIME_OK;
}

int chime_call_message(chime_client *client, const char *method, const ProtobufCMessage *request,
                       const ProtobufCMessageDescriptor *response_type, ProtobufCMessage **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (request == NULL || response_type == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "request or response_type is NULL");
  }
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, method, request, response_type, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (out != NULL) {
    *out = response;
  } else {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return CHIME_OK;
}

void chime_message_free(void *message) {
  if (message != NULL) {
    protobuf_c_message_free_unpacked((ProtobufCMessage *)message, NULL);
  }
}

/* Runs a unary call into *response and, when `wanted`, makes *made: a zeroed result object of
 * `size` bytes for the caller to fill. */
int chimei_result_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                          const ProtobufCMessageDescriptor *response_type, bool wanted, size_t size, void **made,
                          ProtobufCMessage **response, chime_error *error) {
  *made = NULL;
  int code = chimei_unary(client, method, request, response_type, response, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (wanted) {
    *made = calloc(1, size);
    if (*made == NULL) {
      protobuf_c_message_free_unpacked(*response, NULL);
      *response = NULL;
      return chimei_oom(error);
    }
  }
  return chimei_ok(error);
}
