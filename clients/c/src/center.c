/* libchime-client: adding requests, pushing, and the calls extensions make (answers, media). */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

/* An AddResponse, PushResponse or SnoozeResponse as a notification that owns it, into *out. */
static int notification_result(ProtobufCMessage *response, chime_notification **out, chime_error *error) {
  if (out == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_ok(error);
  }
  chime_notification *n = chimei_notification_owning(response);
  if (n == NULL) {
    return chimei_oom(error);
  }
  if (response->descriptor == &chime__v1__add_response__descriptor) {
    const Chime__V1__AddResponse *added = (const Chime__V1__AddResponse *)response;
    if (added->delivered != NULL) { /* no trigger: delivered at once */
      chimei_notification_of_delivered(n, added->delivered);
    } else if (added->pending != NULL) {
      chimei_notification_of_pending(n, added->pending);
    }
    n->replaced = added->replaced;
  } else if (response->descriptor == &chime__v1__snooze_response__descriptor) {
    const Chime__V1__SnoozeResponse *snoozed = (const Chime__V1__SnoozeResponse *)response;
    if (snoozed->snoozed != NULL) {
      chimei_notification_of_pending(n, snoozed->snoozed);
    }
  } else {
    const Chime__V1__PushResponse *pushed = (const Chime__V1__PushResponse *)response;
    if (pushed->delivered != NULL) {
      chimei_notification_of_delivered(n, pushed->delivered);
    }
    n->replaced = pushed->replaced;
  }
  n->owner = response; /* the of_* helpers above reset it */
  *out = n;
  return chimei_ok(error);
}

int chime_add(chime_client *client, const chime_request *request, chime_notification **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  int code = chimei_request_check(request, error);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__AddRequest add = CHIME__V1__ADD_REQUEST__INIT;
  add.request = request->message;
  ProtobufCMessage *response = NULL;
  code = chimei_unary(client, "Add", &add.base, &chime__v1__add_response__descriptor, &response, error);
  return code != CHIME_OK ? code : notification_result(response, out, error);
}

/* chime_add_start's outcome: the AddResponse as a borrowed notification for the callback. */
static void finish_add(chimei_op *op, int code, const chime_error *error, const Chime__V1__Reply *reply) {
  chime_add_callback callback = (chime_add_callback)op->user;
  if (code != CHIME_OK) {
    callback(code, error, NULL, op->context);
    return;
  }
  Chime__V1__AddResponse *added = chime__v1__add_response__unpack(NULL, reply->payload.len, reply->payload.data);
  if (added == NULL) {
    chime_error why;
    chimei_fail(&why, CHIME_INTERNAL, "MALFORMED_REPLY", "the answer to %s is not a chime.v1.AddResponse", op->method);
    callback(why.code, &why, NULL, op->context);
    return;
  }
  chime_notification n;
  memset(&n, 0, sizeof n);
  if (added->delivered != NULL) {
    chimei_notification_of_delivered(&n, added->delivered);
  } else if (added->pending != NULL) {
    chimei_notification_of_pending(&n, added->pending);
  }
  n.replaced = added->replaced;
  callback(CHIME_OK, error, &n, op->context);
  chime__v1__add_response__free_unpacked(added, NULL);
}

int chime_add_start(chime_client *client, const chime_request *request, chime_add_callback callback, void *context,
                    chime_error *error) {
  if (client == NULL || callback == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "client or callback is NULL");
  }
  int code = chimei_request_check(request, error);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__AddRequest add = CHIME__V1__ADD_REQUEST__INIT;
  add.request = request->message;
  return chimei_start_call(client, "Add", &add.base, finish_add, (void (*)(void))callback, context, error);
}

int chime_add_interval(chime_client *client, const char *identifier, const char *title, const char *body,
                       double seconds, bool repeats, int64_t *next_fire_unix_ms, chime_error *error) {
  if (next_fire_unix_ms != NULL) {
    *next_fire_unix_ms = 0;
  }
  if (identifier == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__NotificationContent content = CHIME__V1__NOTIFICATION_CONTENT__INIT;
  content.title = (char *)chimei_text(title);
  content.body = (char *)chimei_text(body);
  Chime__V1__TimeIntervalTrigger interval = CHIME__V1__TIME_INTERVAL_TRIGGER__INIT;
  interval.seconds = seconds;
  interval.repeats = repeats;
  Chime__V1__Trigger trigger = CHIME__V1__TRIGGER__INIT;
  trigger.kind_case = CHIME__V1__TRIGGER__KIND_TIME_INTERVAL;
  trigger.time_interval = &interval;
  Chime__V1__NotificationRequest request = CHIME__V1__NOTIFICATION_REQUEST__INIT;
  request.identifier = (char *)identifier;
  request.content = &content;
  request.trigger = &trigger;
  Chime__V1__AddRequest add = CHIME__V1__ADD_REQUEST__INIT;
  add.request = &request;
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "Add", &add.base, &chime__v1__add_response__descriptor, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  const Chime__V1__AddResponse *added = (const Chime__V1__AddResponse *)response;
  if (next_fire_unix_ms != NULL && added->pending != NULL) {
    *next_fire_unix_ms = added->pending->next_fire_unix_ms;
  }
  protobuf_c_message_free_unpacked(response, NULL);
  return chimei_ok(error);
}

int chime_add_now(chime_client *client, const char *identifier, const char *title, const char *body,
                  const char *category_identifier, chime_error *error) {
  if (identifier == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__NotificationContent content = CHIME__V1__NOTIFICATION_CONTENT__INIT;
  content.title = (char *)chimei_text(title);
  content.body = (char *)chimei_text(body);
  content.category_identifier = (char *)chimei_text(category_identifier);
  Chime__V1__NotificationRequest request = CHIME__V1__NOTIFICATION_REQUEST__INIT;
  request.identifier = (char *)identifier;
  request.content = &content;
  Chime__V1__AddRequest add = CHIME__V1__ADD_REQUEST__INIT;
  add.request = &request;
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "Add", &add.base, &chime__v1__add_response__descriptor, &response, error);
  return code != CHIME_OK ? code : notification_result(response, NULL, error);
}

int chime_push(chime_client *client, const char *payload_json, const char *identifier, chime_notification **out,
               chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (payload_json == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "payload_json is NULL");
  }
  Chime__V1__PushRequest request = CHIME__V1__PUSH_REQUEST__INIT;
  request.payload.data = (uint8_t *)payload_json;
  request.payload.len = strlen(payload_json);
  request.identifier = (char *)chimei_text(identifier);
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "Push", &request.base, &chime__v1__push_response__descriptor, &response, error);
  return code != CHIME_OK ? code : notification_result(response, out, error);
}

/* A unary call answered by Empty. */
static int empty_call(chime_client *client, const char *method, const ProtobufCMessage *request, chime_error *error) {
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, method, request, &chime__v1__empty__descriptor, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  protobuf_c_message_free_unpacked(response, NULL);
  return chimei_ok(error);
}

int chime_answer_response(chime_client *client, const char *extension_identifier, uint64_t response_id, int option,
                          chime_error *error) {
  Chime__V1__AnswerResponseRequest request = CHIME__V1__ANSWER_RESPONSE_REQUEST__INIT;
  request.extension_identifier = (char *)chimei_text(extension_identifier);
  request.response_id = response_id;
  request.option = (Chime__V1__ExtensionResponseOption)option;
  return empty_call(client, "AnswerResponse", &request.base, error);
}

int chime_answer_service(chime_client *client, const char *extension_identifier, uint64_t request_id,
                         const chime_request *content, const char *error_text, chime_error *error) {
  if (content != NULL) {
    int code = chimei_request_check(content, error);
    if (code != CHIME_OK) {
      return code;
    }
  }
  Chime__V1__AnswerServiceRequest request = CHIME__V1__ANSWER_SERVICE_REQUEST__INIT;
  request.extension_identifier = (char *)chimei_text(extension_identifier);
  request.request_id = request_id;
  request.content = content != NULL ? content->message->content : NULL;
  request.error = (char *)chimei_text(error_text);
  return empty_call(client, "AnswerService", &request.base, error);
}

int chime_press_media_button(chime_client *client, const char *notification_identifier, int command,
                             char **extension_identifier, chime_error *error) {
  if (extension_identifier != NULL) {
    *extension_identifier = NULL;
  }
  Chime__V1__PressMediaButtonRequest request = CHIME__V1__PRESS_MEDIA_BUTTON_REQUEST__INIT;
  request.notification_identifier = (char *)chimei_text(notification_identifier);
  request.command = (Chime__V1__MediaCommand)command;
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "PressMediaButton", &request.base,
                          &chime__v1__press_media_button_response__descriptor, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (extension_identifier != NULL) {
    *extension_identifier = strdup(((Chime__V1__PressMediaButtonResponse *)response)->extension_identifier);
    if (*extension_identifier == NULL) {
      protobuf_c_message_free_unpacked(response, NULL);
      return chimei_oom(error);
    }
  }
  protobuf_c_message_free_unpacked(response, NULL);
  return chimei_ok(error);
}

int chime_report_media_playback(chime_client *client, const char *extension_identifier,
                                const char *notification_identifier, int playback, chime_error *error) {
  Chime__V1__ReportMediaPlaybackRequest request = CHIME__V1__REPORT_MEDIA_PLAYBACK_REQUEST__INIT;
  request.extension_identifier = (char *)chimei_text(extension_identifier);
  request.notification_identifier = (char *)chimei_text(notification_identifier);
  request.playback = (Chime__V1__MediaPlayback)playback;
  return empty_call(client, "ReportMediaPlayback", &request.base, error);
}

int chime_snooze(chime_client *client, const char *identifier, int64_t seconds, chime_notification **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (identifier == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__SnoozeRequest request = CHIME__V1__SNOOZE_REQUEST__INIT;
  request.notification_identifier = (char *)identifier;
  request.duration_seconds = seconds;
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "Snooze", &request.base, &chime__v1__snooze_response__descriptor, &response, error);
  return code != CHIME_OK ? code : notification_result(response, out, error);
}
