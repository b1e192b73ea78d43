/* libchime-client: categories and their actions (UNNotificationCategory, UNNotificationAction),
 * and answering a delivered notification with one of them. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

/* ---- building ---- */

static int note(chime_category *category, int code) {
  if (code != CHIME_OK && category->failed == CHIME_OK) {
    category->failed = code;
  }
  return code;
}

chime_category *chime_category_new(const char *identifier) {
  if (identifier == NULL) {
    return NULL;
  }
  chime_category *category = calloc(1, sizeof *category);
  Chime__V1__Category *message = malloc(sizeof *message);
  if (category == NULL || message == NULL) {
    free(category);
    free(message);
    return NULL;
  }
  chime__v1__category__init(message);
  category->message = message;
  category->owned = true;
  if (chimei_set_text(&message->identifier, identifier) != CHIME_OK) {
    chime_category_free(category);
    return NULL;
  }
  return category;
}

void chime_category_free(chime_category *category) {
  if (category != NULL && category->owned) {
    chime__v1__category__free_unpacked(category->message, NULL);
    free(category);
  }
}

Chime__V1__Category *chime_category_message(chime_category *category) {
  return category != NULL ? category->message : NULL;
}

int chime_category_set_options(chime_category *category, unsigned options) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  category->message->custom_dismiss_action = (options & CHIME_CATEGORY_CUSTOM_DISMISS_ACTION) != 0;
  category->message->hidden_previews_show_title = (options & CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE) != 0;
  category->message->hidden_previews_show_subtitle = (options & CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE) != 0;
  return CHIME_OK;
}

int chime_category_add_action(chime_category *category, const char *identifier, const char *title,
                              unsigned options) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Category *m = category->message;
  Chime__V1__Action **grown = realloc(m->actions, (m->n_actions + 1) * sizeof *grown);
  if (grown == NULL) {
    return note(category, CHIME_RESOURCE_EXHAUSTED);
  }
  m->actions = grown;
  Chime__V1__Action *action = malloc(sizeof *action);
  if (action == NULL) {
    return note(category, CHIME_RESOURCE_EXHAUSTED);
  }
  chime__v1__action__init(action);
  m->actions[m->n_actions++] = action;
  action->authentication_required = (options & CHIME_ACTION_AUTHENTICATION_REQUIRED) != 0;
  action->destructive = (options & CHIME_ACTION_DESTRUCTIVE) != 0;
  action->foreground = (options & CHIME_ACTION_FOREGROUND) != 0;
  int code = chimei_set_text(&action->identifier, identifier);
  if (code == CHIME_OK) {
    code = chimei_set_text(&action->title, title);
  }
  return note(category, code);
}

/* Action `index` of a category being built, or NULL (noted as a bad argument). */
static Chime__V1__Action *action_to_change(chime_category *category, size_t index) {
  if (category == NULL || !category->owned) {
    return NULL;
  }
  if (index >= category->message->n_actions) {
    note(category, CHIME_INVALID_ARGUMENT);
    return NULL;
  }
  return category->message->actions[index];
}

int chime_category_set_action_icon(chime_category *category, size_t index, const char *icon) {
  Chime__V1__Action *action = action_to_change(category, index);
  return action != NULL ? note(category, chimei_set_text(&action->icon, icon)) : CHIME_INVALID_ARGUMENT;
}

int chime_category_set_action_text_input(chime_category *category, size_t index, const char *button_title,
                                         const char *placeholder) {
  Chime__V1__Action *action = action_to_change(category, index);
  if (action == NULL) {
    return CHIME_INVALID_ARGUMENT;
  }
  if (action->text_input == NULL) {
    action->text_input = malloc(sizeof *action->text_input);
    if (action->text_input == NULL) {
      return note(category, CHIME_RESOURCE_EXHAUSTED);
    }
    chime__v1__text_input__init(action->text_input);
  }
  int code = chimei_set_text(&action->text_input->button_title, button_title);
  if (code == CHIME_OK) {
    code = chimei_set_text(&action->text_input->placeholder, placeholder);
  }
  return note(category, code);
}

int chime_category_add_intent(chime_category *category, const char *intent_identifier) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Category *m = category->message;
  char **grown = realloc(m->intent_identifiers, (m->n_intent_identifiers + 1) * sizeof *grown);
  if (grown == NULL) {
    return note(category, CHIME_RESOURCE_EXHAUSTED);
  }
  m->intent_identifiers = grown;
  m->intent_identifiers[m->n_intent_identifiers] = NULL;
  int code = chimei_set_text(&m->intent_identifiers[m->n_intent_identifiers], intent_identifier);
  if (code == CHIME_OK) {
    m->n_intent_identifiers++;
  }
  return note(category, code);
}

int chime_category_add_snooze(chime_category *category, int64_t seconds) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  Chime__V1__Category *m = category->message;
  int64_t *grown = realloc(m->snooze_seconds, (m->n_snooze_seconds + 1) * sizeof *grown);
  if (grown == NULL) {
    return note(category, CHIME_RESOURCE_EXHAUSTED);
  }
  m->snooze_seconds = grown;
  m->snooze_seconds[m->n_snooze_seconds++] = seconds;
  return CHIME_OK;
}

int chime_category_set_hidden_previews_body_placeholder(chime_category *category, const char *placeholder) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  return note(category, chimei_set_text(&category->message->hidden_previews_body_placeholder, placeholder));
}

int chime_category_set_summary_format(chime_category *category, const char *format) {
  if (category == NULL || !category->owned) {
    return CHIME_INVALID_ARGUMENT;
  }
  return note(category, chimei_set_text(&category->message->summary_format, format));
}

/* ---- reading ---- */

const char *chime_category_identifier(const chime_category *c) {
  return c != NULL ? chimei_text(c->message->identifier) : "";
}

unsigned chime_category_options(const chime_category *c) {
  if (c == NULL) {
    return 0;
  }
  return (c->message->custom_dismiss_action ? CHIME_CATEGORY_CUSTOM_DISMISS_ACTION : 0u) |
         (c->message->hidden_previews_show_title ? CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_TITLE : 0u) |
         (c->message->hidden_previews_show_subtitle ? CHIME_CATEGORY_HIDDEN_PREVIEWS_SHOW_SUBTITLE : 0u);
}

size_t chime_category_action_count(const chime_category *c) { return c != NULL ? c->message->n_actions : 0; }

static const Chime__V1__Action *action_at(const chime_category *c, size_t index) {
  return index < chime_category_action_count(c) ? c->message->actions[index] : NULL;
}

const char *chime_category_action_identifier(const chime_category *c, size_t index) {
  return action_at(c, index) != NULL ? chimei_text(action_at(c, index)->identifier) : "";
}

const char *chime_category_action_title(const chime_category *c, size_t index) {
  return action_at(c, index) != NULL ? chimei_text(action_at(c, index)->title) : "";
}

unsigned chime_category_action_options(const chime_category *c, size_t index) {
  const Chime__V1__Action *a = action_at(c, index);
  if (a == NULL) {
    return 0;
  }
  return (a->authentication_required ? CHIME_ACTION_AUTHENTICATION_REQUIRED : 0u) |
         (a->destructive ? CHIME_ACTION_DESTRUCTIVE : 0u) | (a->foreground ? CHIME_ACTION_FOREGROUND : 0u);
}

const char *chime_category_action_icon(const chime_category *c, size_t index) {
  return action_at(c, index) != NULL ? chimei_text(action_at(c, index)->icon) : "";
}

bool chime_category_action_has_text_input(const chime_category *c, size_t index) {
  return action_at(c, index) != NULL && action_at(c, index)->text_input != NULL;
}

const char *chime_category_action_text_input_button_title(const chime_category *c, size_t index) {
  return chime_category_action_has_text_input(c, index) ? chimei_text(action_at(c, index)->text_input->button_title)
                                                         : "";
}

const char *chime_category_action_text_input_placeholder(const chime_category *c, size_t index) {
  return chime_category_action_has_text_input(c, index) ? chimei_text(action_at(c, index)->text_input->placeholder)
                                                         : "";
}

size_t chime_category_intent_count(const chime_category *c) {
  return c != NULL ? c->message->n_intent_identifiers : 0;
}

const char *chime_category_intent_at(const chime_category *c, size_t index) {
  return index < chime_category_intent_count(c) ? chimei_text(c->message->intent_identifiers[index]) : "";
}

const char *chime_category_hidden_previews_body_placeholder(const chime_category *c) {
  return c != NULL ? chimei_text(c->message->hidden_previews_body_placeholder) : "";
}

const char *chime_category_summary_format(const chime_category *c) {
  return c != NULL ? chimei_text(c->message->summary_format) : "";
}

size_t chime_category_snooze_count(const chime_category *c) {
  return c != NULL ? c->message->n_snooze_seconds : 0;
}

int64_t chime_category_snooze_at(const chime_category *c, size_t index) {
  return index < chime_category_snooze_count(c) ? c->message->snooze_seconds[index] : 0;
}

size_t chime_category_list_count(const chime_category_list *list) {
  return list != NULL ? list->owner->n_categories : 0;
}

const chime_category *chime_category_list_at(const chime_category_list *list, size_t index) {
  return index < chime_category_list_count(list) ? &list->items[index] : NULL;
}

void chime_category_list_free(chime_category_list *list) {
  if (list != NULL) {
    chime__v1__get_categories_response__free_unpacked(list->owner, NULL);
    free(list->items);
    free(list);
  }
}

/* ---- the calls ---- */

int chime_set_categories(chime_client *client, const chime_category *const *categories, size_t count,
                         chime_error *error) {
  if (categories == NULL && count > 0) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "categories is NULL");
  }
  for (size_t i = 0; i < count; i++) {
    if (categories[i] == NULL) {
      return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "categories[%zu] is NULL", i);
    }
    if (categories[i]->failed == CHIME_RESOURCE_EXHAUSTED) {
      return chimei_oom(error);
    }
    if (categories[i]->failed != CHIME_OK) {
      return chimei_fail(error, categories[i]->failed, "INVALID_ARGUMENT",
                         "a setter of categories[%zu] was given a bad argument", i);
    }
  }
  Chime__V1__Category **messages = calloc(count > 0 ? count : 1, sizeof *messages);
  if (messages == NULL) {
    return chimei_oom(error);
  }
  for (size_t i = 0; i < count; i++) {
    messages[i] = categories[i]->message;
  }
  Chime__V1__SetCategoriesRequest request = CHIME__V1__SET_CATEGORIES_REQUEST__INIT;
  request.n_categories = count;
  request.categories = messages;
  ProtobufCMessage *answer = NULL;
  int code = chimei_unary(client, "SetCategories", &request.base, &chime__v1__empty__descriptor, &answer, error);
  free(messages);
  if (code != CHIME_OK) {
    return code;
  }
  protobuf_c_message_free_unpacked(answer, NULL);
  return chimei_ok(error);
}

int chime_categories(chime_client *client, chime_category_list **out, chime_error *error) {
  if (out == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  *out = NULL;
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  ProtobufCMessage *answer = NULL;
  int code = chimei_unary(client, "GetCategories", &request.base, &chime__v1__get_categories_response__descriptor,
                          &answer, error);
  if (code != CHIME_OK) {
    return code;
  }
  Chime__V1__GetCategoriesResponse *response = (Chime__V1__GetCategoriesResponse *)answer;
  chime_category_list *list = calloc(1, sizeof *list);
  chime_category *items = calloc(response->n_categories > 0 ? response->n_categories : 1, sizeof *items);
  if (list == NULL || items == NULL) {
    free(list);
    free(items);
    protobuf_c_message_free_unpacked(answer, NULL);
    return chimei_oom(error);
  }
  for (size_t i = 0; i < response->n_categories; i++) {
    items[i].message = response->categories[i];
  }
  list->owner = response;
  list->items = items;
  *out = list;
  return chimei_ok(error);
}
