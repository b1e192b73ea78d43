/* libchime-client: sound checks and what the server says of itself. */
#include <stdlib.h>

#include "chime-private.h"

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
  int code = chimei_result_call(client, "CheckSound", &request.base, &chime__v1__check_sound_response__descriptor,
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
  int code = chimei_result_call(client, "GetServerInfo", &request.base, &chime__v1__server_info__descriptor,
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
