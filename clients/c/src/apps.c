/* libchime-client: app registration and app layouts. */
#include <stdlib.h>

#include "chime-private.h"

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
  int code = chimei_result_call(client, method, request, &chime__v1__app_layout__descriptor, out != NULL,
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
  int code = chimei_result_call(client, "ListApps", &request.base, &chime__v1__list_apps_response__descriptor,
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
