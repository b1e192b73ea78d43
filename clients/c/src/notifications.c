/* libchime-client: chime_notification, a read-only view of a pending request, a delivered
 * notification, or a bare request (what a service extension is given). */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdlib.h>

#include "chime-private.h"

void chimei_notification_of_request(chime_notification *n, const Chime__V1__NotificationRequest *request) {
  n->owner = NULL;
  n->request = request;
  n->pending = NULL;
  n->delivered = NULL;
  n->replaced = false;
}

void chimei_notification_of_pending(chime_notification *n, const Chime__V1__PendingRequest *pending) {
  chimei_notification_of_request(n, pending->request);
  n->pending = pending;
}

void chimei_notification_of_delivered(chime_notification *n, const Chime__V1__DeliveredNotification *delivered) {
  chimei_notification_of_request(n, delivered->request);
  n->delivered = delivered;
}

chime_notification *chimei_notification_owning(ProtobufCMessage *owner) {
  chime_notification *n = calloc(1, sizeof *n);
  if (n == NULL) {
    protobuf_c_message_free_unpacked(owner, NULL);
    return NULL;
  }
  n->owner = owner;
  return n;
}

void chime_notification_free(chime_notification *notification) {
  if (notification != NULL && notification->owner != NULL) {
    protobuf_c_message_free_unpacked(notification->owner, NULL);
    free(notification);
  }
}

const Chime__V1__NotificationRequest *chime_notification_request_message(const chime_notification *n) {
  return n != NULL ? n->request : NULL;
}

const Chime__V1__PendingRequest *chime_notification_pending_message(const chime_notification *n) {
  return n != NULL ? n->pending : NULL;
}

const Chime__V1__DeliveredNotification *chime_notification_delivered_message(const chime_notification *n) {
  return n != NULL ? n->delivered : NULL;
}

int chime_notification_state(const chime_notification *n) {
  if (n == NULL || (n->pending == NULL && n->delivered == NULL)) {
    return CHIME_STATE_REQUEST;
  }
  return n->pending != NULL ? CHIME_STATE_PENDING : CHIME_STATE_DELIVERED;
}

bool chime_notification_replaced(const chime_notification *n) { return n != NULL && n->replaced; }

static const Chime__V1__NotificationContent *content_of(const chime_notification *n) {
  return n != NULL && n->request != NULL ? n->request->content : NULL;
}

const char *chime_notification_identifier(const chime_notification *n) {
  return n != NULL && n->request != NULL ? chimei_text(n->request->identifier) : "";
}

#define CONTENT_TEXT(function, field)                          \
  const char *function(const chime_notification *n) {          \
    const Chime__V1__NotificationContent *c = content_of(n);   \
    return c != NULL ? chimei_text(c->field) : "";             \
  }
CONTENT_TEXT(chime_notification_title, title)
CONTENT_TEXT(chime_notification_subtitle, subtitle)
CONTENT_TEXT(chime_notification_body, body)
CONTENT_TEXT(chime_notification_category, category_identifier)
CONTENT_TEXT(chime_notification_thread, thread_identifier)
CONTENT_TEXT(chime_notification_user_info_json, user_info_json)
#undef CONTENT_TEXT

bool chime_notification_has_badge(const chime_notification *n) {
  const Chime__V1__NotificationContent *c = content_of(n);
  return c != NULL && c->badge_set_case == CHIME__V1__NOTIFICATION_CONTENT__BADGE_SET_BADGE;
}

int64_t chime_notification_badge(const chime_notification *n) {
  return chime_notification_has_badge(n) ? content_of(n)->badge : 0;
}

static const Chime__V1__Trigger *trigger_of(const chime_notification *n) {
  return n != NULL && n->request != NULL ? n->request->trigger : NULL;
}

int chime_notification_trigger_kind(const chime_notification *n) {
  const Chime__V1__Trigger *t = trigger_of(n);
  if (t != NULL && t->kind_case == CHIME__V1__TRIGGER__KIND_TIME_INTERVAL && t->time_interval != NULL) {
    return CHIME_TRIGGER_INTERVAL;
  }
  if (t != NULL && t->kind_case == CHIME__V1__TRIGGER__KIND_CALENDAR && t->calendar != NULL) {
    return CHIME_TRIGGER_CALENDAR;
  }
  if (t != NULL && t->kind_case == CHIME__V1__TRIGGER__KIND_RECURRENCE && t->recurrence != NULL) {
    return CHIME_TRIGGER_RECURRENCE;
  }
  return CHIME_TRIGGER_NONE;
}

double chime_notification_interval_seconds(const chime_notification *n) {
  return chime_notification_trigger_kind(n) == CHIME_TRIGGER_INTERVAL ? trigger_of(n)->time_interval->seconds : 0;
}

bool chime_notification_repeats(const chime_notification *n) {
  switch (chime_notification_trigger_kind(n)) {
  case CHIME_TRIGGER_INTERVAL:
    return trigger_of(n)->time_interval->repeats;
  case CHIME_TRIGGER_CALENDAR:
    return trigger_of(n)->calendar->repeats;
  case CHIME_TRIGGER_RECURRENCE:
    return true; /* a rule repeats by its nature (it may end by COUNT or UNTIL) */
  default:
    return false;
  }
}

int64_t chime_notification_next_fire_unix_ms(const chime_notification *n) {
  return n != NULL && n->pending != NULL ? n->pending->next_fire_unix_ms : 0;
}

int64_t chime_notification_added_unix_ms(const chime_notification *n) {
  return n != NULL && n->pending != NULL ? n->pending->added_unix_ms : 0;
}

uint64_t chime_notification_fire_count(const chime_notification *n) {
  return n != NULL && n->pending != NULL ? n->pending->fire_count : 0;
}

int64_t chime_notification_delivered_unix_ms(const chime_notification *n) {
  return n != NULL && n->delivered != NULL ? n->delivered->delivered_unix_ms : 0;
}

int64_t chime_notification_due_unix_ms(const chime_notification *n) {
  return n != NULL && n->delivered != NULL ? n->delivered->due_unix_ms : 0;
}

bool chime_notification_missed(const chime_notification *n) {
  return n != NULL && n->delivered != NULL && n->delivered->missed;
}

uint32_t chime_notification_snooze_count(const chime_notification *n) {
  if (n == NULL) {
    return 0;
  }
  if (n->delivered != NULL) {
    return n->delivered->snooze_count;
  }
  return n->pending != NULL ? n->pending->snooze_count : 0;
}

static const Chime__V1__PushDelivery *push_of(const chime_notification *n) {
  return n != NULL && n->delivered != NULL ? n->delivered->push : NULL;
}

const char *chime_notification_push_content(const chime_notification *n) {
  return push_of(n) != NULL ? chimei_text(push_of(n)->content) : "";
}

const char *chime_notification_push_extension(const chime_notification *n) {
  return push_of(n) != NULL ? chimei_text(push_of(n)->extension_identifier) : "";
}

static const Chime__V1__SoundResolution *sound_of(const chime_notification *n) {
  if (n == NULL) {
    return NULL;
  }
  return n->pending != NULL ? n->pending->sound : n->delivered != NULL ? n->delivered->sound : NULL;
}

const char *chime_notification_sound_plays(const chime_notification *n) {
  return sound_of(n) != NULL ? chimei_text(sound_of(n)->plays) : "";
}

const char *chime_notification_sound_reason(const chime_notification *n) {
  return sound_of(n) != NULL ? chimei_text(sound_of(n)->reason) : "";
}

size_t chime_notification_attachment_count(const chime_notification *n) {
  const Chime__V1__NotificationContent *c = content_of(n);
  return c != NULL ? c->n_attachments : 0;
}

static const Chime__V1__Attachment *attachment_of(const chime_notification *n, size_t index) {
  return index < chime_notification_attachment_count(n) ? content_of(n)->attachments[index] : NULL;
}

const char *chime_notification_attachment_identifier(const chime_notification *n, size_t index) {
  const Chime__V1__Attachment *a = attachment_of(n, index);
  return a != NULL ? chimei_text(a->identifier) : "";
}

const char *chime_notification_attachment_type(const chime_notification *n, size_t index) {
  const Chime__V1__Attachment *a = attachment_of(n, index);
  if (a != NULL && a->info != NULL && a->info->type != NULL && a->info->type[0] != '\0') {
    return a->info->type;
  }
  return a != NULL && a->options != NULL ? chimei_text(a->options->type_hint) : "";
}

const char *chime_notification_attachment_path(const chime_notification *n, size_t index) {
  const Chime__V1__Attachment *a = attachment_of(n, index);
  if (a != NULL && a->info != NULL && a->info->store_path != NULL && a->info->store_path[0] != '\0') {
    return a->info->store_path;
  }
  return a != NULL ? chimei_text(a->path) : "";
}

bool chime_notification_attachment_thumbnail_hidden(const chime_notification *n, size_t index) {
  const Chime__V1__Attachment *a = attachment_of(n, index);
  return a != NULL && a->options != NULL && a->options->thumbnail_hidden;
}
