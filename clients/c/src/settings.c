/* libchime-client: authorization and settings, app registration, sounds and the server. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdlib.h>

#include "chime-private.h"

/* Runs a unary call into *response and, when `wanted`, makes *made: a zeroed result object of
 * `size` bytes for the caller to fill. */
static int result_call(chime_client *client, const char *method, const ProtobufCMessage *request,
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
  int code = result_call(client, method, request, &chime__v1__notification_settings__descriptor,
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
  int code = result_call(client, "RequestAuthorization", &request.base, &chime__v1__authorization_response__descriptor,
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

/* ---- apps ---- */

const Chime__V1__AppLayout *chime_app_message(const chime_app *app) { return app != NULL ? app->message : NULL; }

const char *chime_app_id(const chime_app *app) { return app != NULL ? chimei_text(app->message->app_id) : ""; }

bool chime_app_registered(const chime_app *app) { return app != NULL && app->message->registered; }

const char *chime_app_container(const chime_app *app) {
  return app != NULL ? chimei_text(app->message->container) : "";
}

size_t chime_app_group_container_count(const chime_app *app) {
  return app != NULL ? app->message->n_group_containers : 0;
}

const char *chime_app_group_container_at(const chime_app *app, size_t index) {
  return index < chime_app_group_container_count(app) ? chimei_text(app->message->group_containers[index]) : "";
}

const char *chime_app_bundle(const chime_app *app) { return app != NULL ? chimei_text(app->message->bundle) : ""; }

const char *chime_app_display_name(const chime_app *app) {
  return app != NULL ? chimei_text(app->message->display_name) : "";
}

const char *chime_app_desktop_entry(const chime_app *app) {
  return app != NULL ? chimei_text(app->message->desktop_entry) : "";
}

void chime_app_free(chime_app *app) {
  if (app != NULL && app->owner != NULL) {
    protobuf_c_message_free_unpacked(app->owner, NULL);
    free(app);
  }
}

size_t chime_app_list_count(const chime_app_list *list) { return list != NULL ? list->owner->n_apps : 0; }

const chime_app *chime_app_list_at(const chime_app_list *list, size_t index) {
  return index < chime_app_list_count(list) ? &list->items[index] : NULL;
}

void chime_app_list_free(chime_app_list *list) {
  if (list != NULL) {
    chime__v1__list_apps_response__free_unpacked(list->owner, NULL);
    free(list->items);
    free(list);
  }
}

static int app_call(chime_client *client, const char *method, const ProtobufCMessage *request, chime_app **out,
                    chime_error *error) {
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = result_call(client, method, request, &chime__v1__app_layout__descriptor, out != NULL,
                         sizeof(chime_app), &made, &response, error);
  if (out != NULL) {
    *out = made;
  }
  if (code == CHIME_OK && out != NULL) {
    (*out)->owner = response;
    (*out)->message = (const Chime__V1__AppLayout *)response;
  } else if (code == CHIME_OK) {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return code;
}

int chime_register_app(chime_client *client, const char *container, const char *const *group_containers,
                       size_t group_container_count, const char *bundle, const char *display_name,
                       const char *desktop_entry, chime_app **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (group_containers == NULL && group_container_count > 0) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "group_containers is NULL");
  }
  Chime__V1__RegisterAppRequest request = CHIME__V1__REGISTER_APP_REQUEST__INIT;
  request.container = (char *)chimei_text(container);
  request.n_group_containers = group_container_count;
  request.group_containers = (char **)group_containers;
  request.bundle = (char *)chimei_text(bundle);
  request.display_name = (char *)chimei_text(display_name);
  request.desktop_entry = (char *)chimei_text(desktop_entry);
  return app_call(client, "RegisterApp", &request.base, out, error);
}

int chime_get_app(chime_client *client, chime_app **out, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return app_call(client, "GetApp", &request.base, out, error);
}

int chime_list_apps(chime_client *client, chime_app_list **out, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = result_call(client, "ListApps", &request.base, &chime__v1__list_apps_response__descriptor,
                         out != NULL, sizeof(chime_app_list), &made, &response, error);
  if (out != NULL) {
    *out = made;
  }
  if (code != CHIME_OK) {
    return code;
  }
  if (out == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return CHIME_OK;
  }
  Chime__V1__ListAppsResponse *apps = (Chime__V1__ListAppsResponse *)response;
  (*out)->owner = apps;
  (*out)->items = calloc(apps->n_apps > 0 ? apps->n_apps : 1, sizeof *(*out)->items);
  if ((*out)->items == NULL) {
    chime_app_list_free(*out);
    *out = NULL;
    return chimei_oom(error);
  }
  for (size_t i = 0; i < apps->n_apps; i++) {
    (*out)->items[i].message = apps->apps[i];
  }
  return CHIME_OK;
}

/* ---- sounds and the server ---- */

const Chime__V1__CheckSoundResponse *chime_sound_check_message(const chime_sound_check *c) {
  return c != NULL ? c->owner : NULL;
}

size_t chime_sound_check_searched_count(const chime_sound_check *c) { return c != NULL ? c->owner->n_searched : 0; }

const char *chime_sound_check_searched_path(const chime_sound_check *c, size_t index) {
  return index < chime_sound_check_searched_count(c) ? chimei_text(c->owner->searched[index]->path) : "";
}

bool chime_sound_check_searched_exists(const chime_sound_check *c, size_t index) {
  return index < chime_sound_check_searched_count(c) && c->owner->searched[index]->exists;
}

const char *chime_sound_check_plays(const chime_sound_check *c) {
  return c != NULL && c->owner->resolution != NULL ? chimei_text(c->owner->resolution->plays) : "";
}

const char *chime_sound_check_path(const chime_sound_check *c) {
  return c != NULL && c->owner->resolution != NULL ? chimei_text(c->owner->resolution->path) : "";
}

const char *chime_sound_check_reason(const chime_sound_check *c) {
  return c != NULL && c->owner->resolution != NULL ? chimei_text(c->owner->resolution->reason) : "";
}

void chime_sound_check_free(chime_sound_check *c) {
  if (c != NULL) {
    chime__v1__check_sound_response__free_unpacked(c->owner, NULL);
    free(c);
  }
}

int chime_check_sound(chime_client *client, const char *name, chime_sound_check **out, chime_error *error) {
  Chime__V1__CheckSoundRequest request = CHIME__V1__CHECK_SOUND_REQUEST__INIT;
  request.name = (char *)chimei_text(name);
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = result_call(client, "CheckSound", &request.base, &chime__v1__check_sound_response__descriptor,
                         out != NULL, sizeof(chime_sound_check), &made, &response, error);
  if (out != NULL) {
    *out = made;
  }
  if (code == CHIME_OK && out != NULL) {
    (*out)->owner = (Chime__V1__CheckSoundResponse *)response;
  } else if (code == CHIME_OK) {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return code;
}

const Chime__V1__ServerInfo *chime_server_info_message(const chime_server_info *i) {
  return i != NULL ? i->owner : NULL;
}

const char *chime_server_info_version(const chime_server_info *i) {
  return i != NULL ? chimei_text(i->owner->version) : "";
}

uint32_t chime_server_info_pid(const chime_server_info *i) { return i != NULL ? i->owner->pid : 0; }

int64_t chime_server_info_started_at_ms(const chime_server_info *i) { return i != NULL ? i->owner->started_at_ms : 0; }

const char *chime_server_info_data_directory(const chime_server_info *i) {
  return i != NULL ? chimei_text(i->owner->data_directory) : "";
}

const char *chime_server_info_socket_path(const chime_server_info *i) {
  return i != NULL ? chimei_text(i->owner->socket_path) : "";
}

void chime_server_info_free(chime_server_info *i) {
  if (i != NULL) {
    chime__v1__server_info__free_unpacked(i->owner, NULL);
    free(i);
  }
}

int chime_get_server_info(chime_client *client, chime_server_info **out, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  ProtobufCMessage *response = NULL;
  void *made = NULL;
  int code = result_call(client, "GetServerInfo", &request.base, &chime__v1__server_info__descriptor,
                         out != NULL, sizeof(chime_server_info), &made, &response, error);
  if (out != NULL) {
    *out = made;
  }
  if (code == CHIME_OK && out != NULL) {
    (*out)->owner = (Chime__V1__ServerInfo *)response;
  } else if (code == CHIME_OK) {
    protobuf_c_message_free_unpacked(response, NULL);
  }
  return code;
}
