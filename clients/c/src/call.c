/* libchime-client: unary calls. Each call carries its deadline (the client's timeout from now)
 * in the frame and waits for its final reply at most that long. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chime-private.h"

/*
 * Reads frames until the final reply of `call_id`; replies to other call ids (calls this client
 * gave up on) are skipped. On success *out is the unpacked frame.
 */
static int await_reply(chime_client *client, uint64_t call_id, const char *method, Chime__V1__Frame **out,
                       chime_error *error) {
  int64_t deadline = client->timeout_ms < 0 ? -1 : chimei_monotonic_ms() + client->timeout_ms;
  for (;;) {
    Chime__V1__Frame *frame = NULL;
    int error_number = 0;
    switch (chimei_read_frame(client->fd, -1, deadline, &frame, &error_number)) {
    case CHIMEI_READ_OK:
      break;
    case CHIMEI_READ_TIMEOUT: /* nothing of a frame was read: the connection stays usable */
      chimei_send_cancel(client, call_id);
      return chimei_fail(error, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED", "no answer to %s within %d ms", method,
                         client->timeout_ms);
    case CHIMEI_READ_PARTIAL_TIMEOUT:
      return chimei_fail_connection(client, error, CHIME_DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED",
                                    "no complete answer to %s within %d ms", method, client->timeout_ms);
    case CHIMEI_READ_ERROR:
      return chimei_fail_connection(client, error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                    "cannot read from chimed: %s", strerror(error_number));
    case CHIMEI_READ_TOO_LARGE:
      return chimei_fail_connection(client, error, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE",
                                    "chimed sent a frame over the limit of %u bytes", CHIMEI_MAX_REPLY_BYTES);
    case CHIMEI_READ_NO_MEMORY:
      return chimei_fail_connection(client, error, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
    case CHIMEI_READ_MALFORMED:
      return chimei_fail_connection(client, error, CHIME_INTERNAL, "MALFORMED_REPLY",
                                    "chimed sent a frame that does not decode");
    case CHIMEI_READ_PARTIAL:
      return chimei_fail_connection(client, error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                    "chimed closed the connection in the middle of a frame");
    case CHIMEI_READ_EOF:
    case CHIMEI_READ_STOPPED:
    default:
      return chimei_fail_connection(client, error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED",
                                    "chimed closed the connection");
    }
    if (frame->kind_case != CHIME__V1__FRAME__KIND_REPLY || frame->reply == NULL) {
      chime__v1__frame__free_unpacked(frame, NULL);
      return chimei_fail_connection(client, error, CHIME_INTERNAL, "MALFORMED_REPLY",
                                    "chimed sent a frame that is not a reply");
    }
    if (frame->call_id == 0) {
      /* Connection-level status (framing error, refused peer, shutdown); the daemon hangs up. */
      chime_error why;
      const Chime__V1__Status *wire = frame->reply->status;
      if (wire != NULL && wire->code != CHIME_OK) {
        chimei_from_wire(&why, wire);
      } else {
        chimei_fail(&why, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the connection");
      }
      chime__v1__frame__free_unpacked(frame, NULL);
      return chimei_break(client, error, &why);
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
  char path[256];
  int n = snprintf(path, sizeof path, "%s%s", method[0] == '/' ? "" : CHIMEI_SERVICE_PREFIX, method);
  if (n < 0 || (size_t)n >= sizeof path) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "method name is too long");
  }

  Chime__V1__Call call = CHIME__V1__CALL__INIT;
  call.method = path;
  call.app_id = client->app_id;
  call.payload.data = (uint8_t *)payload;
  call.payload.len = payload_len;
  if (client->timeout_ms >= 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    call.deadline_unix_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + client->timeout_ms;
  }
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = client->next_call_id++;
  if (client->next_call_id == 0) {
    client->next_call_id = 1; /* 0 is reserved */
  }
  frame.kind_case = CHIME__V1__FRAME__KIND_CALL;
  frame.call = &call;
  int code = chimei_send_frame(client, &frame, error);
  if (code != CHIME_OK) {
    return code;
  }

  Chime__V1__Frame *answer = NULL;
  code = await_reply(client, frame.call_id, path, &answer, error);
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
