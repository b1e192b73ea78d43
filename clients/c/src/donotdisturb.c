/* libchime-client: the user's Do Not Disturb (SetDoNotDisturb, GetDoNotDisturb). */
#include <stdlib.h>

#include "chime-private.h"

/* ---- the state ---- */

const Chime__V1__DoNotDisturbState *chime_dnd_message(const chime_dnd *dnd) { return dnd != NULL ? dnd->message : NULL; }

bool chime_dnd_active(const chime_dnd *dnd) { return dnd != NULL && dnd->message->active; }

int chime_dnd_source(const chime_dnd *dnd) { return dnd != NULL ? (int)dnd->message->source : CHIME_DND_OFF; }

int64_t chime_dnd_until_unix_ms(const chime_dnd *dnd) { return dnd != NULL ? dnd->message->until_unix_ms : 0; }

int64_t chime_dnd_next_start_unix_ms(const chime_dnd *dnd) { return dnd != NULL ? dnd->message->next_start_unix_ms : 0; }

const char *chime_dnd_desktop(const chime_dnd *dnd) { return dnd != NULL ? chimei_text(dnd->message->desktop) : ""; }

bool chime_dnd_manual_on(const chime_dnd *dnd) { return dnd != NULL && dnd->message->manual_on; }

int64_t chime_dnd_manual_until_unix_ms(const chime_dnd *dnd) {
  return dnd != NULL ? dnd->message->manual_until_unix_ms : 0;
}

bool chime_dnd_schedule(const chime_dnd *dnd, unsigned *start_minute, unsigned *end_minute, unsigned *days) {
  const Chime__V1__DoNotDisturbSchedule *s = dnd != NULL ? dnd->message->schedule : NULL;
  if (start_minute != NULL) {
    *start_minute = s != NULL ? s->start_minute : 0;
  }
  if (end_minute != NULL) {
    *end_minute = s != NULL ? s->end_minute : 0;
  }
  if (days != NULL) {
    *days = s != NULL ? (s->days == 0 ? CHIME_DND_EVERY_DAY : s->days) : 0;
  }
  return s != NULL;
}

bool chime_dnd_follows_desktop(const chime_dnd *dnd) { return dnd != NULL && dnd->message->follow_desktop; }

bool chime_dnd_summary(const chime_dnd *dnd) { return dnd != NULL && dnd->message->summary; }

const char *chime_dnd_time_zone(const chime_dnd *dnd) { return dnd != NULL ? chimei_text(dnd->message->time_zone) : ""; }

void chime_dnd_free(chime_dnd *dnd) {
  if (dnd != NULL) {
    protobuf_c_message_free_unpacked(dnd->owner, NULL);
    free(dnd);
  }
}

/* A call answered by DoNotDisturbState, into *out when not NULL. */
static int dnd_call(chime_client *client, const char *method, const ProtobufCMessage *request, chime_dnd **out,
                    chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, method, request, &chime__v1__do_not_disturb_state__descriptor, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (out == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_ok(error);
  }
  *out = calloc(1, sizeof(chime_dnd));
  if (*out == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_oom(error);
  }
  (*out)->owner = response;
  (*out)->message = (const Chime__V1__DoNotDisturbState *)response;
  return chimei_ok(error);
}

/* ---- the calls ---- */

int chime_get_do_not_disturb(chime_client *client, chime_dnd **out, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return dnd_call(client, "GetDoNotDisturb", &request.base, out, error);
}

/* A tri-state argument: CHIME_UNCHANGED, 0 or 1. */
static bool tri_state(int value) { return value == CHIME_UNCHANGED || value == 0 || value == 1; }

int chime_set_do_not_disturb(chime_client *client, int manual, int64_t until_unix_ms, int follow_desktop, int summary,
                             chime_dnd **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  if (!tri_state(manual) || !tri_state(follow_desktop) || !tri_state(summary) || until_unix_ms < 0 ||
      (until_unix_ms != 0 && manual != 1)) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT",
                       "manual, follow_desktop and summary are CHIME_UNCHANGED, 0 or 1; an until goes with manual 1");
  }
  Chime__V1__SetDoNotDisturbRequest request = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__INIT;
  if (manual != CHIME_UNCHANGED) {
    request.manual_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__MANUAL_SET_MANUAL_ON;
    request.manual_on = manual == 1;
    request.manual_until_unix_ms = until_unix_ms;
  }
  if (follow_desktop != CHIME_UNCHANGED) {
    request.follow_desktop_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__FOLLOW_DESKTOP_SET_FOLLOW_DESKTOP;
    request.follow_desktop = follow_desktop == 1;
  }
  if (summary != CHIME_UNCHANGED) {
    request.summary_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SUMMARY_SET_SUMMARY;
    request.summary = summary == 1;
  }
  return dnd_call(client, "SetDoNotDisturb", &request.base, out, error);
}

int chime_set_do_not_disturb_schedule(chime_client *client, unsigned start_minute, unsigned end_minute, unsigned days,
                                      chime_dnd **out, chime_error *error) {
  Chime__V1__SetDoNotDisturbRequest request = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__INIT;
  Chime__V1__DoNotDisturbSchedule schedule = CHIME__V1__DO_NOT_DISTURB_SCHEDULE__INIT;
  schedule.start_minute = start_minute;
  schedule.end_minute = end_minute;
  schedule.days = days == CHIME_DND_EVERY_DAY ? 0 : days;
  request.schedule_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_SCHEDULE;
  request.schedule = &schedule;
  return dnd_call(client, "SetDoNotDisturb", &request.base, out, error);
}

int chime_clear_do_not_disturb_schedule(chime_client *client, chime_dnd **out, chime_error *error) {
  Chime__V1__SetDoNotDisturbRequest request = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__INIT;
  request.schedule_set_case = CHIME__V1__SET_DO_NOT_DISTURB_REQUEST__SCHEDULE_SET_CLEAR_SCHEDULE;
  request.clear_schedule = true;
  return dnd_call(client, "SetDoNotDisturb", &request.base, out, error);
}
