/* libchime-client: the connection's clock and its breaking. The wire itself (each frame a
 * 4-byte big-endian length and one serialized chime.v1.Frame, Protos/chime/v1/frame.proto) is
 * read and written by the state machine in loop.c. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#include "chime-private.h"

int64_t chimei_monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int chimei_break(chime_client *client, chime_error *error, const chime_error *why) {
  if (!client->broken) {
    client->broken = true;
    client->broken_error = *why;
    if (client->fd >= 0) {
      shutdown(client->fd, SHUT_RDWR);
    }
    /* Nothing more arrives: every call still waiting on the connection ends with `why`. The
     * error is copied first, as the callbacks this runs may reuse the caller's. */
    chime_error copy = *why;
    chimei_fail_all(client, &copy);
    if (error != NULL) {
      *error = copy;
    }
    return copy.code;
  }
  if (error != NULL) {
    *error = *why;
  }
  return why->code;
}

int chimei_fail_connection(chime_client *client, chime_error *error, int code, const char *reason,
                           const char *format, ...) {
  chime_error why;
  why.code = code;
  chimei_copy_text(why.reason, sizeof why.reason, reason);
  va_list args;
  va_start(args, format);
  vsnprintf(why.message, sizeof why.message, format, args);
  va_end(args);
  why.field[0] = '\0';
  return chimei_break(client, error, &why);
}
