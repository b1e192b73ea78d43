/* libchime-client: status codes, the chime_error object and the helpers that fill it. */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chime-private.h"

const char *chime_code_name(int code) {
  static const char *const names[] = {
      "OK",      "CANCELLED",         "UNKNOWN",     "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
      "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
  };
  if (code < 0 || (size_t)code >= sizeof names / sizeof names[0]) {
    return "UNKNOWN_CODE";
  }
  return names[code];
}

chime_error *chime_error_new(void) { return calloc(1, sizeof(chime_error)); }

void chime_error_free(chime_error *error) { free(error); }

int chime_error_code(const chime_error *error) { return error != NULL ? error->code : CHIME_OK; }

const char *chime_error_reason(const chime_error *error) { return error != NULL ? error->reason : ""; }

const char *chime_error_message(const chime_error *error) { return error != NULL ? error->message : ""; }

const char *chime_error_field(const chime_error *error) { return error != NULL ? error->field : ""; }

const char *chimei_text(const char *text) { return text != NULL ? text : ""; }

void chimei_copy_text(char *dst, size_t size, const char *src) {
  size_t n = 0;
  if (src != NULL) {
    while (n + 1 < size && src[n] != '\0') {
      dst[n] = src[n];
      n++;
    }
  }
  dst[n] = '\0';
}

int chimei_ok(chime_error *error) {
  if (error != NULL) {
    memset(error, 0, sizeof *error);
  }
  return CHIME_OK;
}

int chimei_fail(chime_error *error, int code, const char *reason, const char *format, ...) {
  if (error != NULL) {
    error->code = code;
    chimei_copy_text(error->reason, sizeof error->reason, reason);
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    error->field[0] = '\0';
  }
  return code;
}

int chimei_oom(chime_error *error) {
  return chimei_fail(error, CHIME_RESOURCE_EXHAUSTED, "OUT_OF_MEMORY", "out of memory");
}

int chimei_from_wire(chime_error *error, const Chime__V1__Status *wire) {
  if (error != NULL) {
    error->code = wire->code;
    chimei_copy_text(error->reason, sizeof error->reason, wire->reason);
    chimei_copy_text(error->message, sizeof error->message, wire->message);
    chimei_copy_text(error->field, sizeof error->field, wire->field);
  }
  return wire->code;
}
