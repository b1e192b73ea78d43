/* libchime-client: chime_request, a notification request built field by field. It holds a
 * chime.v1.NotificationRequest whose every part is malloc'd, so that protobuf-c's
 * free_unpacked frees it whole. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
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

/* Remembers the first failure of a setter for the call that sends the request. */
static int note(chime_request *request, int code) {
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
    return note(request, chimei_set_text(&request->message->content->field, value)); \
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
      return note(request, CHIME_RESOURCE_EXHAUSTED);
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
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  sound->kind = (Chime__V1__SoundKind)kind;
  return note(request, chimei_set_text(&sound->name, name));
}

int chime_request_set_sound_volume(chime_request *request, double volume) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Sound *sound = sound_of(request);
  if (sound == NULL) {
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  sound->volume_set_case = CHIME__V1__SOUND__VOLUME_SET_VOLUME;
  sound->volume = volume;
  return CHIME_OK;
}

int chime_request_add_attachment(chime_request *request, const char *identifier, const char *path,
                                 const char *type_hint) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  if (path == NULL) {
    return note(request, CHIME_INVALID_ARGUMENT);
  }
  Chime__V1__NotificationContent *content = request->message->content;
  Chime__V1__Attachment **grown = realloc(content->attachments, (content->n_attachments + 1) * sizeof *grown);
  if (grown == NULL) {
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  content->attachments = grown;
  Chime__V1__Attachment *attachment = malloc(sizeof *attachment);
  Chime__V1__AttachmentOptions *options = malloc(sizeof *options);
  if (attachment == NULL || options == NULL) {
    free(attachment);
    free(options);
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  chime__v1__attachment__init(attachment);
  chime__v1__attachment_options__init(options);
  attachment->options = options;
  content->attachments[content->n_attachments++] = attachment;
  int code = chimei_set_text(&attachment->identifier, identifier);
  if (code == CHIME_OK) {
    code = chimei_set_text(&attachment->path, path);
  }
  if (code == CHIME_OK) {
    code = chimei_set_text(&options->type_hint, type_hint);
  }
  return note(request, code);
}

/* The options of attachment `index`, or NULL (noted as a bad argument). */
static Chime__V1__AttachmentOptions *options_of(chime_request *request, size_t index) {
  const Chime__V1__NotificationContent *content = request->message->content;
  if (index >= content->n_attachments) {
    note(request, CHIME_INVALID_ARGUMENT);
    return NULL;
  }
  return content->attachments[index]->options;
}

int chime_request_set_attachment_thumbnail_hidden(chime_request *request, size_t index, bool hidden) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  options->thumbnail_hidden = hidden;
  return CHIME_OK;
}

int chime_request_set_attachment_clip(chime_request *request, size_t index, double x, double y, double width,
                                      double height) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  if (options->clip_set_case != CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT) {
    options->thumbnail_clipping_rect = malloc(sizeof *options->thumbnail_clipping_rect);
    if (options->thumbnail_clipping_rect == NULL) {
      return note(request, CHIME_RESOURCE_EXHAUSTED);
    }
    chime__v1__clip_rect__init(options->thumbnail_clipping_rect);
    options->clip_set_case = CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT;
  }
  Chime__V1__ClipRect *clip = options->thumbnail_clipping_rect;
  clip->x = x;
  clip->y = y;
  clip->width = width;
  clip->height = height;
  return CHIME_OK;
}

int chime_request_set_attachment_thumbnail_time(chime_request *request, size_t index, double seconds) {
  Chime__V1__AttachmentOptions *options = request != NULL ? options_of(request, index) : NULL;
  if (options == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  options->time_set_case = CHIME__V1__ATTACHMENT_OPTIONS__TIME_SET_THUMBNAIL_TIME;
  options->thumbnail_time = seconds;
  return CHIME_OK;
}

/* A new trigger of the given kind in place of the request's; NULL when out of memory. */
static Chime__V1__Trigger *replace_trigger(chime_request *request, Chime__V1__Trigger__KindCase kind) {
  Chime__V1__Trigger *trigger = malloc(sizeof *trigger);
  Chime__V1__TimeIntervalTrigger *interval = NULL;
  Chime__V1__CalendarTrigger *calendar = NULL;
  Chime__V1__DateComponents *components = NULL;
  Chime__V1__RecurrenceTrigger *recurrence = NULL;
  bool made = trigger != NULL;
  if (made && kind == CHIME__V1__TRIGGER__KIND_TIME_INTERVAL) {
    made = (interval = malloc(sizeof *interval)) != NULL;
  } else if (made && kind == CHIME__V1__TRIGGER__KIND_RECURRENCE) {
    made = (recurrence = malloc(sizeof *recurrence)) != NULL;
  } else if (made) {
    made = (calendar = malloc(sizeof *calendar)) != NULL && (components = malloc(sizeof *components)) != NULL;
  }
  if (!made) {
    free(trigger);
    free(interval);
    free(calendar);
    free(components);
    free(recurrence);
    note(request, CHIME_RESOURCE_EXHAUSTED);
    return NULL;
  }
  chime__v1__trigger__init(trigger);
  trigger->kind_case = kind;
  if (interval != NULL) {
    chime__v1__time_interval_trigger__init(interval);
    trigger->time_interval = interval;
  } else if (recurrence != NULL) {
    chime__v1__recurrence_trigger__init(recurrence);
    trigger->recurrence = recurrence;
  } else {
    chime__v1__calendar_trigger__init(calendar);
    chime__v1__date_components__init(components);
    calendar->components = components;
    trigger->calendar = calendar;
  }
  if (request->message->trigger != NULL) {
    chime__v1__trigger__free_unpacked(request->message->trigger, NULL);
  }
  request->message->trigger = trigger;
  return trigger;
}

int chime_request_set_interval(chime_request *request, double seconds, bool repeats) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Trigger *trigger = replace_trigger(request, CHIME__V1__TRIGGER__KIND_TIME_INTERVAL);
  if (trigger == NULL) {
    return CHIME_RESOURCE_EXHAUSTED;
  }
  trigger->time_interval->seconds = seconds;
  trigger->time_interval->repeats = repeats;
  return CHIME_OK;
}

/* The request's calendar trigger, made when it has another or none. */
static Chime__V1__CalendarTrigger *calendar_of(chime_request *request) {
  Chime__V1__Trigger *trigger = request->message->trigger;
  if (trigger == NULL || trigger->kind_case != CHIME__V1__TRIGGER__KIND_CALENDAR) {
    trigger = replace_trigger(request, CHIME__V1__TRIGGER__KIND_CALENDAR);
  }
  return trigger != NULL ? trigger->calendar : NULL;
}

int chime_request_set_calendar(chime_request *request, const char *time_zone, bool repeats) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__CalendarTrigger *calendar = calendar_of(request);
  if (calendar == NULL) {
    return CHIME_RESOURCE_EXHAUSTED;
  }
  calendar->repeats = repeats;
  return note(request, chimei_set_text(&calendar->components->time_zone, time_zone));
}

int chime_request_set_date_component(chime_request *request, int component, int32_t value) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__CalendarTrigger *calendar = calendar_of(request);
  if (calendar == NULL) {
    return CHIME_RESOURCE_EXHAUSTED;
  }
  Chime__V1__DateComponents *to = calendar->components;
  switch (component) {
#define COMPONENT(CONSTANT, name, NAME)                                     \
  case CONSTANT:                                                            \
    to->name##_set_case = CHIME__V1__DATE_COMPONENTS__##NAME##_SET_##NAME; \
    to->name = value;                                                       \
    return CHIME_OK;
    COMPONENT(CHIME_YEAR, year, YEAR)
    COMPONENT(CHIME_MONTH, month, MONTH)
    COMPONENT(CHIME_DAY, day, DAY)
    COMPONENT(CHIME_HOUR, hour, HOUR)
    COMPONENT(CHIME_MINUTE, minute, MINUTE)
    COMPONENT(CHIME_SECOND, second, SECOND)
    COMPONENT(CHIME_WEEKDAY, weekday, WEEKDAY)
    COMPONENT(CHIME_WEEKDAY_ORDINAL, weekday_ordinal, WEEKDAY_ORDINAL)
    COMPONENT(CHIME_WEEK_OF_MONTH, week_of_month, WEEK_OF_MONTH)
    COMPONENT(CHIME_WEEK_OF_YEAR, week_of_year, WEEK_OF_YEAR)
    COMPONENT(CHIME_YEAR_FOR_WEEK_OF_YEAR, year_for_week_of_year, YEAR_FOR_WEEK_OF_YEAR)
#undef COMPONENT
  default:
    return note(request, CHIME_INVALID_ARGUMENT);
  }
}

int chime_request_set_weekdays(chime_request *request, const int32_t *weekdays, size_t count) {
  if (request == NULL || (weekdays == NULL && count > 0)) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__CalendarTrigger *calendar = calendar_of(request);
  int32_t *copy = count > 0 ? malloc(count * sizeof *copy) : NULL;
  if (calendar == NULL || (count > 0 && copy == NULL)) {
    free(copy);
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  for (size_t i = 0; i < count; i++) {
    copy[i] = weekdays[i];
  }
  free(calendar->components->weekdays);
  calendar->components->weekdays = copy;
  calendar->components->n_weekdays = count;
  return CHIME_OK;
}

int chime_request_set_end(chime_request *request, int64_t until_unix_ms, uint32_t count) {
  if (request == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Trigger *trigger = request->message->trigger;
  Chime__V1__RepeatEnd **slot = NULL;
  if (trigger != NULL && trigger->kind_case == CHIME__V1__TRIGGER__KIND_TIME_INTERVAL) {
    slot = &trigger->time_interval->end;
  } else if (trigger != NULL && trigger->kind_case == CHIME__V1__TRIGGER__KIND_CALENDAR) {
    slot = &trigger->calendar->end;
  } else {
    return note(request, CHIME_INVALID_ARGUMENT); /* only an interval or calendar trigger ends */
  }
  if (*slot == NULL) {
    if ((*slot = malloc(sizeof **slot)) == NULL) {
      return note(request, CHIME_RESOURCE_EXHAUSTED);
    }
  }
  chime__v1__repeat_end__init(*slot);
  if (until_unix_ms != 0) {
    (*slot)->until_set_case = CHIME__V1__REPEAT_END__UNTIL_SET_UNTIL_UNIX_MS;
    (*slot)->until_unix_ms = until_unix_ms;
  }
  (*slot)->count = count;
  return CHIME_OK;
}

int chime_request_set_recurrence(chime_request *request, const char *rule, const char *start, const char *time_zone) {
  if (request == NULL || rule == NULL || start == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Trigger *trigger = replace_trigger(request, CHIME__V1__TRIGGER__KIND_RECURRENCE);
  if (trigger == NULL) {
    return CHIME_RESOURCE_EXHAUSTED;
  }
  Chime__V1__RecurrenceTrigger *recurrence = trigger->recurrence;
  int code = chimei_set_text(&recurrence->rule, rule);
  if (code == CHIME_OK) code = chimei_set_text(&recurrence->start, start);
  if (code == CHIME_OK) code = chimei_set_text(&recurrence->time_zone, time_zone);
  return note(request, code);
}

int chime_request_add_exclusion(chime_request *request, const char *local_time) {
  if (request == NULL || local_time == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Trigger *trigger = request->message->trigger;
  if (trigger == NULL || trigger->kind_case != CHIME__V1__TRIGGER__KIND_RECURRENCE) {
    return note(request, CHIME_INVALID_ARGUMENT); /* set the recurrence rule first */
  }
  Chime__V1__RecurrenceTrigger *recurrence = trigger->recurrence;
  char **grown = realloc(recurrence->exclusions, (recurrence->n_exclusions + 1) * sizeof *grown);
  if (grown == NULL) {
    return note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  recurrence->exclusions = grown;
  grown[recurrence->n_exclusions] = NULL;
  int code = chimei_set_text(&grown[recurrence->n_exclusions], local_time);
  if (code == CHIME_OK) {
    recurrence->n_exclusions++;
  }
  return note(request, code);
}
