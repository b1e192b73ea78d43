/* libchime-client: chime_request, a notification request built field by field. It holds a
 * chime.v1.NotificationRequest whose every part is malloc'd, so that protobuf-c's
 * free_unpacked frees it whole. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

int chimei_set_text(char **slot, const char *value) {
  char *copy = strdup(value != NULL ? value : "");
  if (copy == NULL) {
    return CHIME_RESOURCE_EXHAUSTED;
  }
  if (*slot != NULL && *slot != protobuf_c_empty_string) {
    free(*slot);
  }
  *slot = copy;
  return CHIME_OK;
}

int chimei_request_note(chime_request *request, int code) {
  if (code != CHIME_OK && request->failed == CHIME_OK) {
    request->failed = code;
  }
  return code;
}

chime_request *chime_request_new(const char *identifier) {
  if (identifier == NULL) {
    return NULL;
  }
  chime_request *request = calloc(1, sizeof *request);
  Chime__V1__NotificationRequest *message = malloc(sizeof *message);
  Chime__V1__NotificationContent *content = malloc(sizeof *content);
  if (request == NULL || message == NULL || content == NULL) {
    free(request);
    free(message);
    free(content);
    return NULL;
  }
  chime__v1__notification_request__init(message);
  chime__v1__notification_content__init(content);
  message->content = content;
  request->message = message;
  if (chimei_set_text(&message->identifier, identifier) != CHIME_OK) {
    chime_request_free(request);
    return NULL;
  }
  return request;
}

void chime_request_free(chime_request *request) {
  if (request != NULL) {
    chime__v1__notification_request__free_unpacked(request->message, NULL);
    free(request);
  }
}

int chimei_request_check(const chime_request *request, chime_error *error) {
  if (request == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "request is NULL");
  }
  if (request->failed == CHIME_RESOURCE_EXHAUSTED) {
    return chimei_oom(error);
  }
  if (request->failed != CHIME_OK) {
    return chimei_fail(error, request->failed, "INVALID_ARGUMENT", "a setter of the request was given a bad argument");
  }
  return CHIME_OK;
}

Chime__V1__NotificationRequest *chime_request_message(chime_request *request) {
  return request != NULL ? request->message : NULL;
}

#define CONTENT_TEXT(function, field)                                               \
  int function(chime_request *request, const char *value) {                         \
    if (request == NULL) {                                                          \
      return CHIME_INVALID_ARGUMENT;                                                \
    }                                                                               \
    return chimei_request_note(request, chimei_set_text(&request->message->content->field, value)); \
  }
CONTENT_TEXT(chime_request_set_title, title)
CONTENT_TEXT(chime_request_set_subtitle, subtitle)
CONTENT_TEXT(chime_request_set_body, body)
CONTENT_TEXT(chime_request_set_category, category_identifier)
CONTENT_TEXT(chime_request_set_thread, thread_identifier)
CONTENT_TEXT(chime_request_set_user_info_json, user_info_json)
#undef CONTENT_TEXT

int chime_request_set_badge(chime_request *request, int64_t badge) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  request->message->content->badge_set_case = CHIME__V1__NOTIFICATION_CONTENT__BADGE_SET_BADGE;
  request->message->content->badge = badge;
  return CHIME_OK;
}

int chime_request_set_relevance_score(chime_request *request, double score) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  request->message->content->relevance_set_case = CHIME__V1__NOTIFICATION_CONTENT__RELEVANCE_SET_RELEVANCE_SCORE;
  request->message->content->relevance_score = score;
  return CHIME_OK;
}

int chime_request_set_interruption_level(chime_request *request, int level) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  request->message->content->interruption_level = (Chime__V1__InterruptionLevel)level;
  return CHIME_OK;
}

int chime_request_set_ring(chime_request *request, uint32_t seconds) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__NotificationContent *content = request->message->content;
  if (content->ring == NULL) {
    content->ring = malloc(sizeof *content->ring);
    if (content->ring == NULL) {
      return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
    }
    chime__v1__ring__init(content->ring);
  }
  content->ring->seconds = seconds;
  return CHIME_OK;
}

int chime_request_set_ring_auto_snooze(chime_request *request, uint32_t times) {
  if (request == NULL || request->message->content->ring == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  request->message->content->ring->auto_snooze = times;
  return CHIME_OK;
}

/* The content's sound, made when it has none; NULL when out of memory. */
static Chime__V1__Sound *sound_of(chime_request *request) {
  Chime__V1__NotificationContent *content = request->message->content;
  if (content->sound == NULL) {
    content->sound = malloc(sizeof *content->sound);
    if (content->sound != NULL) {
      chime__v1__sound__init(content->sound);
    }
  }
  return content->sound;
}

int chime_request_set_sound(chime_request *request, int kind, const char *name) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Sound *sound = sound_of(request);
  if (sound == NULL) {
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  sound->kind = (Chime__V1__SoundKind)kind;
  return chimei_request_note(request, chimei_set_text(&sound->name, name));
}

int chime_request_set_sound_volume(chime_request *request, double volume) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Sound *sound = sound_of(request);
  if (sound == NULL) {
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  sound->volume_set_case = CHIME__V1__SOUND__VOLUME_SET_VOLUME;
  sound->volume = volume;
  return CHIME_OK;
}
