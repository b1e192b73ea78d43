/* libchime-client: the lists of pending requests and delivered notifications (one page or
 * every page), removal and its list of identifiers, and the fire dates of a trigger. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

/* ---- notification lists ---- */

size_t chime_notification_list_count(const chime_notification_list *list) { return list != NULL ? list->count : 0; }

const chime_notification *chime_notification_list_at(const chime_notification_list *list, size_t index) {
  return list != NULL && index < list->count ? &list->items[index] : NULL;
}

const char *chime_notification_list_next_page_token(const chime_notification_list *list) {
  return list != NULL ? chimei_text(list->next_page_token) : "";
}

void chime_notification_list_free(chime_notification_list *list) {
  if (list == NULL) {
    return;
  }
  for (size_t i = 0; i < list->page_count; i++) {
    protobuf_c_message_free_unpacked(list->pages[i], NULL);
  }
  free(list->pages);
  free(list->items);
  free(list->next_page_token);
  free(list);
}

/* Adds a page (which the list then owns) and its items; false when out of memory (the page is
 * freed then too). */
static bool append_page(chime_notification_list *list, ProtobufCMessage *page, bool pending) {
  ProtobufCMessage **pages = realloc(list->pages, (list->page_count + 1) * sizeof *pages);
  if (pages == NULL) {
    protobuf_c_message_free_unpacked(page, NULL);
    return false;
  }
  list->pages = pages;
  list->pages[list->page_count++] = page;
  const Chime__V1__GetPendingResponse *p = (const Chime__V1__GetPendingResponse *)page;
  const Chime__V1__GetDeliveredResponse *d = (const Chime__V1__GetDeliveredResponse *)page;
  size_t n = pending ? p->n_requests : d->n_notifications;
  if (n == 0) {
    return true;
  }
  chime_notification *items = realloc(list->items, (list->count + n) * sizeof *items);
  if (items == NULL) {
    return false;
  }
  list->items = items;
  for (size_t i = 0; i < n; i++) {
    if (pending) {
      chimei_notification_of_pending(&items[list->count++], p->requests[i]);
    } else {
      chimei_notification_of_delivered(&items[list->count++], d->notifications[i]);
    }
  }
  return true;
}

/* Fetches one page into `list`, whose next_page_token becomes the page's. */
static int fetch_page(chime_client *client, bool pending, uint32_t page_size, const char *page_token,
                      chime_notification_list *list, chime_error *error) {
  Chime__V1__PageRequest request = CHIME__V1__PAGE_REQUEST__INIT;
  request.page_size = page_size;
  request.page_token = (char *)chimei_text(page_token);
  ProtobufCMessage *page = NULL;
  int code = chimei_unary(client, pending ? "GetPending" : "GetDelivered", &request.base,
                          pending ? &chime__v1__get_pending_response__descriptor
                                  : &chime__v1__get_delivered_response__descriptor,
                          &page, error);
  if (code != CHIME_OK) {
    return code;
  }
  const char *next = pending ? ((Chime__V1__GetPendingResponse *)page)->next_page_token
                             : ((Chime__V1__GetDeliveredResponse *)page)->next_page_token;
  char *token = strdup(chimei_text(next));
  if (token == NULL || !append_page(list, page, pending)) {
    free(token);
    return chimei_oom(error);
  }
  free(list->next_page_token);
  list->next_page_token = token;
  return CHIME_OK;
}

static int one_page(chime_client *client, bool pending, uint32_t page_size, const char *page_token,
                    chime_notification_list **out, chime_error *error) {
  if (out == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  *out = calloc(1, sizeof **out);
  if (*out == NULL) {
    return chimei_oom(error);
  }
  int code = fetch_page(client, pending, page_size, page_token, *out, error);
  if (code != CHIME_OK) {
    chime_notification_list_free(*out);
    *out = NULL;
    return code;
  }
  return chimei_ok(error);
}

static int every_page(chime_client *client, bool pending, chime_notification_list **out, chime_error *error) {
  int code = one_page(client, pending, 0, NULL, out, error);
  for (int pages = 1; code == CHIME_OK && (*out)->next_page_token[0] != '\0'; pages++) {
    if (pages > 100000) {
      code = chimei_fail(error, CHIME_INTERNAL, "MALFORMED_REPLY", "chimed keeps sending pages");
      break;
    }
    char *token = (*out)->next_page_token;
    (*out)->next_page_token = NULL;
    code = fetch_page(client, pending, 0, token, *out, error);
    free(token);
  }
  if (code != CHIME_OK) {
    chime_notification_list_free(*out);
    *out = NULL;
    return code;
  }
  return chimei_ok(error);
}

int chime_pending(chime_client *client, chime_notification_list **out, chime_error *error) {
  return every_page(client, true, out, error);
}

int chime_pending_page(chime_client *client, uint32_t page_size, const char *page_token,
                       chime_notification_list **out, chime_error *error) {
  return one_page(client, true, page_size, page_token, out, error);
}

int chime_delivered(chime_client *client, chime_notification_list **out, chime_error *error) {
  return every_page(client, false, out, error);
}

int chime_delivered_page(chime_client *client, uint32_t page_size, const char *page_token,
                         chime_notification_list **out, chime_error *error) {
  return one_page(client, false, page_size, page_token, out, error);
}

/* ---- removal ---- */

size_t chime_id_list_count(const chime_id_list *list) { return list != NULL ? list->owner->n_removed : 0; }

const char *chime_id_list_at(const chime_id_list *list, size_t index) {
  return index < chime_id_list_count(list) ? list->owner->removed[index] : "";
}

void chime_id_list_free(chime_id_list *list) {
  if (list != NULL) {
    chime__v1__remove_response__free_unpacked(list->owner, NULL);
    free(list);
  }
}

/* Runs a call answered by a RemoveResponse; *removed (when not NULL) gets its identifiers. */
static int remove_call(chime_client *client, const char *method, const ProtobufCMessage *request,
                       chime_id_list **removed, chime_error *error) {
  if (removed != NULL) {
    *removed = NULL;
  }
  ProtobufCMessage *response = NULL;
  int code = chimei_unary(client, method, request, &chime__v1__remove_response__descriptor, &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (removed == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_ok(error);
  }
  *removed = malloc(sizeof **removed);
  if (*removed == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_oom(error);
  }
  (*removed)->owner = (Chime__V1__RemoveResponse *)response;
  return chimei_ok(error);
}

static int remove_identifiers(chime_client *client, const char *method, const char *const *identifiers, size_t count,
                              chime_id_list **removed, chime_error *error) {
  if (removed != NULL) {
    *removed = NULL;
  }
  if (identifiers == NULL && count > 0) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifiers is NULL");
  }
  for (size_t i = 0; i < count; i++) {
    if (identifiers[i] == NULL) {
      return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "identifier %zu is NULL", i);
    }
  }
  Chime__V1__IdentifiersRequest request = CHIME__V1__IDENTIFIERS_REQUEST__INIT;
  request.n_identifiers = count;
  request.identifiers = (char **)identifiers;
  return remove_call(client, method, &request.base, removed, error);
}

int chime_remove(chime_client *client, const char *const *identifiers, size_t count, chime_id_list **removed,
                 chime_error *error) {
  return remove_identifiers(client, "RemovePending", identifiers, count, removed, error);
}

int chime_remove_all(chime_client *client, chime_id_list **removed, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return remove_call(client, "RemoveAllPending", &request.base, removed, error);
}

int chime_remove_delivered(chime_client *client, const char *const *identifiers, size_t count,
                           chime_id_list **removed, chime_error *error) {
  return remove_identifiers(client, "RemoveDelivered", identifiers, count, removed, error);
}

int chime_remove_all_delivered(chime_client *client, chime_id_list **removed, chime_error *error) {
  Chime__V1__Empty request = CHIME__V1__EMPTY__INIT;
  return remove_call(client, "RemoveAllDelivered", &request.base, removed, error);
}

/* ---- fire dates ---- */

static const Chime__V1__FireDate *date_at(const chime_date_list *list, size_t index) {
  return list != NULL && index < list->owner->n_dates ? list->owner->dates[index] : NULL;
}

size_t chime_date_list_count(const chime_date_list *list) { return list != NULL ? list->owner->n_dates : 0; }

int64_t chime_date_list_unix_ms(const chime_date_list *list, size_t index) {
  return date_at(list, index) != NULL ? date_at(list, index)->unix_ms : 0;
}

const char *chime_date_list_time_zone(const chime_date_list *list, size_t index) {
  return date_at(list, index) != NULL ? chimei_text(date_at(list, index)->time_zone) : "";
}

int32_t chime_date_list_utc_offset_seconds(const chime_date_list *list, size_t index) {
  return date_at(list, index) != NULL ? date_at(list, index)->utc_offset_seconds : 0;
}

const char *chime_date_list_dst_note(const chime_date_list *list, size_t index) {
  return date_at(list, index) != NULL ? chimei_text(date_at(list, index)->dst_note) : "";
}

const Chime__V1__NextTriggerDatesResponse *chime_date_list_message(const chime_date_list *list) {
  return list != NULL ? list->owner : NULL;
}

void chime_date_list_free(chime_date_list *list) {
  if (list != NULL) {
    chime__v1__next_trigger_dates_response__free_unpacked(list->owner, NULL);
    free(list);
  }
}

int chime_next_trigger_dates(chime_client *client, const chime_request *request, int64_t after_unix_ms,
                             uint32_t count, chime_date_list **out, chime_error *error) {
  if (out != NULL) {
    *out = NULL;
  }
  int code = chimei_request_check(request, error);
  if (code != CHIME_OK) {
    return code;
  }
  if (out == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  Chime__V1__NextTriggerDatesRequest call = CHIME__V1__NEXT_TRIGGER_DATES_REQUEST__INIT;
  call.trigger = request->message->trigger;
  call.after_unix_ms = after_unix_ms;
  call.count = count;
  ProtobufCMessage *response = NULL;
  code = chimei_unary(client, "NextTriggerDates", &call.base, &chime__v1__next_trigger_dates_response__descriptor,
                      &response, error);
  if (code != CHIME_OK) {
    return code;
  }
  *out = malloc(sizeof **out);
  if (*out == NULL) {
    protobuf_c_message_free_unpacked(response, NULL);
    return chimei_oom(error);
  }
  (*out)->owner = (Chime__V1__NextTriggerDatesResponse *)response;
  return chimei_ok(error);
}
