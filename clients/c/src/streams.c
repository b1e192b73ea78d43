/* libchime-client: the server-streaming calls (Subscribe, RegisterExtension), each on a
 * connection of its own, and the events they deliver. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "chime-private.h"

/* chimei_run_stream's callbacks: the caller's, and the stream's end recorded for the wait. */
typedef struct blocking_stream {
  int (*callback)(const void *message, void *context);
  void *context;
  bool ended;
  chime_error outcome;
} blocking_stream;

static int blocking_message(chimei_op *op, const ProtobufCMessage *message) {
  blocking_stream *b = op->context;
  return b->callback(message, b->context);
}

static void blocking_done(int code, const chime_error *error, void *context) {
  (void)code;
  blocking_stream *b = context;
  b->outcome = *error;
  b->ended = true;
}

/*
 * The blocking streams on the non-blocking machine: a connection of their own (so the client's
 * connection stays free for other threads' calls), the stream started on it, then poll(2) on
 * its fd and the client's stop eventfd with chime_process until the stream ends.
 */
int chimei_run_stream(chime_client *client, const char *method, const ProtobufCMessage *request,
                      const ProtobufCMessageDescriptor *message_type, int (*callback)(const void *, void *),
                      void *context, chime_error *error) {
  chime_client *stream = NULL;
  int code = chime_connect(&stream, client->socket_path, client->app_id, error);
  if (code != CHIME_OK) {
    return code;
  }
  blocking_stream b = {.callback = callback, .context = context};
  chimei_op *op = NULL;
  code = chimei_stream_start(stream, method, request, message_type, blocking_message, blocking_done, &b, &op, error);
  while (code == CHIME_OK && !b.ended) {
    struct pollfd pollers[2] = {{.fd = chime_get_fd(stream), .events = (short)chime_get_events(stream), .revents = 0},
                                {.fd = client->stop_fd, .events = POLLIN, .revents = 0}};
    int ready = poll(pollers, 2, -1);
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      code = chimei_fail(error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "cannot poll chimed: %s", strerror(errno));
      break;
    }
    if ((pollers[1].revents & POLLIN) != 0) {
      uint64_t count;
      (void)!read(client->stop_fd, &count, sizeof count); /* consume the stop */
      code = chimei_fail(error, CHIME_CANCELLED, "CANCELLED", "%s stopped by chime_subscribe_stop", method);
      break;
    }
    (void)chime_process(stream, NULL); /* a broken connection ends the stream: b.ended */
  }
  if (code == CHIME_OK) {
    code = b.outcome.code;
    if (error != NULL) {
      *error = b.outcome;
    }
  }
  chime_subscription_cancel(op); /* sends the Cancel if the stream still runs */
  chime_close(stream);
  return code;
}

/* ---- Subscribe ---- */

typedef struct event_adapter {
  chime_event_callback event;
  chime_extension_callback extension;
  void *context;
} event_adapter;

static int call_event(const void *message, void *context) {
  const event_adapter *a = context;
  chime_event event = {.message = message};
  if (event.message->delivered != NULL) {
    chimei_notification_of_delivered(&event.notification, event.message->delivered);
    event.has_notification = true;
  } else if (event.message->pending != NULL) {
    chimei_notification_of_pending(&event.notification, event.message->pending);
    event.has_notification = true;
  }
  return a->event(&event, a->context);
}

int chime_subscribe(chime_client *client, const uint64_t *after_cursor, chime_event_callback callback, void *context,
                    chime_error *error) {
  if (client == NULL || callback == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client or callback is NULL");
  }
  Chime__V1__SubscribeRequest request = CHIME__V1__SUBSCRIBE_REQUEST__INIT;
  if (after_cursor != NULL) {
    request.resume_case = CHIME__V1__SUBSCRIBE_REQUEST__RESUME_AFTER_CURSOR;
    request.after_cursor = *after_cursor;
  }
  event_adapter adapter = {.event = callback, .context = context};
  return chimei_run_stream(client, "Subscribe", &request.base, &chime__v1__event__descriptor, call_event, &adapter,
                           error);
}

const Chime__V1__Event *chime_event_message(const chime_event *event) { return event != NULL ? event->message : NULL; }

int chime_event_kind(const chime_event *event) { return event != NULL ? (int)event->message->kind : 0; }

uint64_t chime_event_cursor(const chime_event *event) { return event != NULL ? event->message->cursor : 0; }

int64_t chime_event_at_unix_ms(const chime_event *event) { return event != NULL ? event->message->at_unix_ms : 0; }

size_t chime_event_identifier_count(const chime_event *event) {
  return event != NULL ? event->message->n_identifiers : 0;
}

const char *chime_event_identifier_at(const chime_event *event, size_t index) {
  return index < chime_event_identifier_count(event) ? chimei_text(event->message->identifiers[index]) : "";
}

const chime_notification *chime_event_notification(const chime_event *event) {
  return event != NULL && event->has_notification ? &event->notification : NULL;
}

const char *chime_event_response_action(const chime_event *event) {
  return event != NULL && event->message->response != NULL ? chimei_text(event->message->response->action_identifier)
                                                            : "";
}

const char *chime_event_response_text(const chime_event *event) {
  return event != NULL && event->message->response != NULL ? chimei_text(event->message->response->user_text) : "";
}

const char *chime_event_note(const chime_event *event) { return event != NULL ? chimei_text(event->message->note) : ""; }

int64_t chime_event_badge_count(const chime_event *event) { return event != NULL ? event->message->badge_count : 0; }

/* ---- RegisterExtension ---- */

static int call_extension_event(const void *message, void *context) {
  const event_adapter *a = context;
  chime_extension_event event = {.message = message};
  if (event.message->delivered != NULL) {
    chimei_notification_of_delivered(&event.notification, event.message->delivered);
    event.has_notification = true;
  }
  if (event.message->service_request != NULL && event.message->service_request->request != NULL) {
    chimei_notification_of_request(&event.service_request, event.message->service_request->request);
    event.has_service_request = true;
  }
  return a->extension(&event, a->context);
}

int chime_register_extension_message(chime_client *client, const Chime__V1__RegisterExtensionRequest *request,
                                     chime_extension_callback callback, void *context, chime_error *error) {
  if (client == NULL || callback == NULL || request == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client, request or callback is NULL");
  }
  event_adapter adapter = {.extension = callback, .context = context};
  return chimei_run_stream(client, "RegisterExtension", &request->base, &chime__v1__extension_event__descriptor,
                           call_extension_event, &adapter, error);
}

int chime_register_content_extension(chime_client *client, const char *extension_identifier,
                                     const char *const *category_identifiers, size_t category_count,
                                     double content_size_ratio, unsigned options, chime_extension_callback callback,
                                     void *context, chime_error *error) {
  if (extension_identifier == NULL || (category_identifiers == NULL && category_count > 0)) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT",
                       "extension_identifier or category_identifiers is NULL");
  }
  Chime__V1__ExtensionAttributes attributes = CHIME__V1__EXTENSION_ATTRIBUTES__INIT;
  attributes.ratio_case = CHIME__V1__EXTENSION_ATTRIBUTES__RATIO_INITIAL_CONTENT_SIZE_RATIO;
  attributes.initial_content_size_ratio = content_size_ratio;
  attributes.default_content_hidden = (options & CHIME_EXTENSION_DEFAULT_CONTENT_HIDDEN) != 0;
  attributes.overrides_default_title = (options & CHIME_EXTENSION_OVERRIDES_DEFAULT_TITLE) != 0;
  attributes.user_interaction_enabled = (options & CHIME_EXTENSION_USER_INTERACTION_ENABLED) != 0;
  Chime__V1__RegisterExtensionRequest request = CHIME__V1__REGISTER_EXTENSION_REQUEST__INIT;
  request.extension_identifier = (char *)extension_identifier;
  request.n_category_identifiers = category_count;
  request.category_identifiers = (char **)category_identifiers;
  request.attributes = &attributes;
  return chime_register_extension_message(client, &request, callback, context, error);
}

int chime_register_service_extension(chime_client *client, const char *extension_identifier,
                                     chime_extension_callback callback, void *context, chime_error *error) {
  if (extension_identifier == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "extension_identifier is NULL");
  }
  Chime__V1__RegisterExtensionRequest request = CHIME__V1__REGISTER_EXTENSION_REQUEST__INIT;
  request.extension_identifier = (char *)extension_identifier;
  request.service = true;
  return chime_register_extension_message(client, &request, callback, context, error);
}

const Chime__V1__ExtensionEvent *chime_extension_event_message(const chime_extension_event *event) {
  return event != NULL ? event->message : NULL;
}

bool chime_extension_event_registered(const chime_extension_event *event) {
  return event != NULL && event->message->registered;
}

const chime_notification *chime_extension_event_notification(const chime_extension_event *event) {
  return event != NULL && event->has_notification ? &event->notification : NULL;
}

uint64_t chime_extension_event_response_id(const chime_extension_event *event) {
  return event != NULL ? event->message->response_id : 0;
}

static const Chime__V1__NotificationResponse *response_of(const chime_extension_event *event) {
  return event != NULL ? event->message->response : NULL;
}

const char *chime_extension_event_response_identifier(const chime_extension_event *event) {
  return response_of(event) != NULL ? chimei_text(response_of(event)->notification_identifier) : "";
}

const char *chime_extension_event_response_action(const chime_extension_event *event) {
  return response_of(event) != NULL ? chimei_text(response_of(event)->action_identifier) : "";
}

const char *chime_extension_event_response_text(const chime_extension_event *event) {
  return response_of(event) != NULL ? chimei_text(response_of(event)->user_text) : "";
}

const char *chime_extension_event_media_identifier(const chime_extension_event *event) {
  return event != NULL && event->message->media != NULL ? chimei_text(event->message->media->notification_identifier)
                                                        : "";
}

int chime_extension_event_media_command(const chime_extension_event *event) {
  return event != NULL && event->message->media != NULL ? (int)event->message->media->command : 0;
}

uint64_t chime_extension_event_service_id(const chime_extension_event *event) {
  return event != NULL && event->message->service_request != NULL ? event->message->service_request->id : 0;
}

const chime_notification *chime_extension_event_service_request(const chime_extension_event *event) {
  return event != NULL && event->has_service_request ? &event->service_request : NULL;
}

int64_t chime_extension_event_service_deadline_unix_ms(const chime_extension_event *event) {
  return event != NULL && event->message->service_request != NULL ? event->message->service_request->deadline_unix_ms
                                                                   : 0;
}

uint64_t chime_extension_event_service_time_will_expire(const chime_extension_event *event) {
  return event != NULL ? event->message->service_time_will_expire : 0;
}
