/* libchime-client: authorization and settings. */
#include <stdlib.h>

#include "chime-private.h"
/* ---- settings ---- */

int chime_settings_authorization_status(const chime_settings *s) {
  return s != NULL ? (int)s->message->authorization_status : CHIME_AUTHORIZATION_NOT_DETERMINED;
}

bool chime_settings_enabled(const chime_settings *s, unsigned switch_bit) {
  if (s == NULL) {
    return false;
  }
  const Chime__V1__NotificationSettings *m = s->message;
  switch (switch_bit) {
  case CHIME_AUTH_ALERT: return m->alert;
  case CHIME_AUTH_SOUND: return m->sound;
  case CHIME_AUTH_BADGE: return m->badge;
  case CHIME_AUTH_CRITICAL_ALERT: return m->critical_alert;
  case CHIME_AUTH_TIME_SENSITIVE: return m->time_sensitive;
  case CHIME_AUTH_CAR_PLAY: return m->car_play;
  case CHIME_AUTH_PROVIDES_APP_NOTIFICATION_SETTINGS: return m->provides_app_notification_settings;
  case CHIME_AUTH_ANNOUNCEMENT: return m->announcement;
  default: return false;
  }
}

int64_t chime_settings_badge_count(const chime_settings *s) { return s != NULL ? s->message->badge_count : 0; }

const Chime__V1__NotificationSettings *chime_settings_message(const chime_settings *s) {
  return s != NULL ? s->message : NULL;
}

void chime_settings_free(chime_settings *s) {
  if (s != NULL) {
    protobuf_c_message_free_unpacked(s->owner, NULL);
    free(s);
  }
}

/* A call answered by NotificationSettings, into *out when not NULL. */
static int settings_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                         chime_settings **out, chime_error *error) {
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = chimei_result_call(client, method, request, &chime__v1__notification_settings__descriptor,
                         out != NULL, sizeof(chime_settings), &made, &response, error);
  if (out != NULL) {
    *out = made;
  }
  if (code == CHIME_OK && out != NULL) {
    (*out)->owner = response;
    (*out)->message = (const Chime__V1__NotificationSettings *)response;
  } else if (code == CHIME_OK) {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return code;
}

int chime_request_authorization(chime_client *client, unsigned options, bool *granted, chime_settings **settings,
                                chime_error *error) {
  if (granted != NULL) {
    *granted = false;
  }
  Chime__V1__AuthorizationRequest request = CHIME__V1__AUTHORIZATION_REQUEST__INIT;
  request.alert = (options & CHIME_AUTH_ALERT) != 0;
  request.sound = (options & CHIME_AUTH_SOUND) != 0;
  request.badge = (options & CHIME_AUTH_BADGE) != 0;
  request.critical_alert = (options & CHIME_AUTH_CRITICAL_ALERT) != 0;
  request.provisional = (options & CHIME_AUTH_PROVISIONAL) != 0;
  request.time_sensitive = (options & CHIME_AUTH_TIME_SENSITIVE) != 0;
  request.car_play = (options & CHIME_AUTH_CAR_PLAY) != 0;
  request.provides_app_notification_settings = (options & CHIME_AUTH_PROVIDES_APP_NOTIFICATION_SETTINGS) != 0;
  request.announcement = (options & CHIME_AUTH_ANNOUNCEMENT) != 0;
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = chimei_result_call(client, "RequestAuthorization", &request.base, &chime__v1__authorization_response__descriptor,
                         settings != NULL, sizeof(chime_settings), &made, &response, error);
  if (settings != NULL) {
    *settings = made;
  }
  if (code != CHIME_OK) {
    return code;
  }
  const Chime__V1__AuthorizationResponse *answer = (const Chime__V1__AuthorizationResponse *)response;
  if (granted != NULL) {
    *granted = answer->granted;
  }
  static const Chime__V1__NotificationSettings none = CHIME__V1__NOTIFICATION_SETTINGS__INIT;
  if (settings != NULL) {
    (*settings)->owner = response;
    (*settings)->message = answer->settings != NULL ? answer->settings : &none;
  } else {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return CHIME_OK;
}

int chime_get_settings(chime_client *client, chime_settings **out, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return settings_call(client, "GetSettings", &request.base, out, error);
}

int chime_set_badge_count(chime_client *client, int64_t count, chime_error *error) {
  Chime__V1__SetBadgeCountRequest request = CHIME__V1__SET_BADGE_COUNT_REQUEST__INIT;
  request.count = count;
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, "SetBadgeCount", &request.base, &chime__v1__empty__descriptor, &response, error);
  if (code == CHIME_OK) {
    protobuf_c_message_free_unpacked(response, NULL);
    chimei_ok(error);
  }
  return code;
}

int chime_set_app_settings(chime_client *client, const char *app_id, int status, unsigned change, unsigned values,
                           chime_settings **out, chime_error *error) {
  Chime__V1__AppSettingsRequest request = CHIME__V1__APP_SETTINGS_REQUEST__INIT;
  request.app_id = (char *)chimei_text(app_id);
  if (status != CHIME_UNCHANGED) {
    request.status_set_case = CHIME__V1__APP_SETTINGS_REQUEST__STATUS_SET_STATUS;
    request.status = (Chime__V1__AuthorizationStatus)status;
  }
#define SWITCH(BIT, name, NAME)                                                   \
  if ((change & (BIT)) != 0) {                                                    \
    request.name##_set_case = CHIME__V1__APP_SETTINGS_REQUEST__##NAME##_SET_##NAME; \
    request.name = (values & (BIT)) != 0;                                         \
  }
  SWITCH(CHIME_AUTH_ALERT, alert, ALERT)
  SWITCH(CHIME_AUTH_SOUND, sound, SOUND)
  SWITCH(CHIME_AUTH_BADGE, badge, BADGE)
  SWITCH(CHIME_AUTH_CRITICAL_ALERT, critical_alert, CRITICAL_ALERT)
  SWITCH(CHIME_AUTH_TIME_SENSITIVE, time_sensitive, TIME_SENSITIVE)
  SWITCH(CHIME_AUTH_CAR_PLAY, car_play, CAR_PLAY)
  SWITCH(CHIME_AUTH_ANNOUNCEMENT, announcement, ANNOUNCEMENT)
#undef SWITCH
  return settings_call(client, "SetAppSettings", &request.base, out, error);
}
