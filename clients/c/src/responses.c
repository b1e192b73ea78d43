/* libchime-client: responses to delivered notifications (an action, text, a snooze). */
#include "chime-private.h"

static int respond(chime_client *client, const char *identifier, const char *action, const char *text, int64_t snooze_seconds,
                   bool *removed, chime_error *error) {
  if (removed != NULL) {
    *removed = false;
  }
  if (identifier == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier is NULL");
  }
  Chime__V1__NotificationResponse response = CHIME__V1__NOTIFICATION_RESPONSE__INIT;
  response.notification_identifier = (char *)identifier;
  response.action_identifier = (char *)(action != NULL ? action : CHIME_DEFAULT_ACTION);
  response.user_text = (char *)chimei_text(text);
  response.snooze_seconds = snooze_seconds;
  Chime__V1__RespondRequest request = CHIME__V1__RESPOND_REQUEST__INIT;
  request.response = &response;
  ProtobufCMessage *answer = NULL;
  int code = chimei_unary(client, "Respond", &request.base, &chime__v1__respond_response__descriptor, &answer, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (removed != NULL) {
    *removed = ((Chime__V1__RespondResponse *)answer)->removed;
  }
  protobuf_c_message_free_unpacked(answer, NULL);
  return chimei_ok(error);
}

int chime_respond(chime_client *client, const char *identifier, const char *action, const char *text, bool *removed,
                  chime_error *error) {
  return respond(client, identifier, action, text, 0, removed, error);
}

int chime_respond_snooze(chime_client *client, const char *identifier, int64_t seconds, bool *removed, chime_error *error) {
  return respond(client, identifier, CHIME_SNOOZE_ACTION, NULL, seconds, removed, error);
}
