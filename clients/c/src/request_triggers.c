/* libchime-client: a request's trigger: a time interval, calendar components and weekdays, a
 * recurrence rule with its exclusions, and where a repeating one ends. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

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
    chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
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
  return chimei_request_note(request, chimei_set_text(&calendar->components->time_zone, time_zone));
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
    return chimei_request_note(request, CHIME_INVALID_ARGUMENT);
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
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
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
    return chimei_request_note(request, CHIME_INVALID_ARGUMENT); /* only an interval or calendar trigger ends */
  }
  if (*slot == NULL) {
    if ((*slot = malloc(sizeof **slot)) == NULL) {
      return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
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
  return chimei_request_note(request, code);
}

int chime_request_add_exclusion(chime_request *request, const char *local_time) {
  if (request == NULL || local_time == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Trigger *trigger = request->message->trigger;
  if (trigger == NULL || trigger->kind_case != CHIME__V1__TRIGGER__KIND_RECURRENCE) {
    return chimei_request_note(request, CHIME_INVALID_ARGUMENT); /* set the recurrence rule first */
  }
  Chime__V1__RecurrenceTrigger *recurrence = trigger->recurrence;
  char **grown = realloc(recurrence->exclusions, (recurrence->n_exclusions + 1) * sizeof *grown);
  if (grown == NULL) {
    return chimei_request_note(request, CHIME_RESOURCE_EXHAUSTED);
  }
  recurrence->exclusions = grown;
  grown[recurrence->n_exclusions] = NULL;
  int code = chimei_set_text(&grown[recurrence->n_exclusions], local_time);
  if (code == CHIME_OK) {
    recurrence->n_exclusions++;
  }
  return chimei_request_note(request, code);
}
