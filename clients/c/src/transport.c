/* libchime-client: the wire. Each frame is a 4-byte big-endian length and one serialized
 * chime.v1.Frame (Protos/chime/v1/frame.proto); reads wait with poll(2) for a deadline or a
 * stop signal. */
#define _GNU_SOURCE /* MSG_NOSIGNAL */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

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

/* Writes all of `data`; 0, or an errno value. */
static int write_all(int fd, const uint8_t *data, size_t length) {
  while (length > 0) {
    ssize_t n = send(fd, data, length, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno;
    }
    data += n;
    length -= (size_t)n;
  }
  return 0;
}

int chimei_send_frame(chime_client *client, const Chime__V1__Frame *frame, chime_error *error) {
  size_t size = chime__v1__frame__get_packed_size(frame);
  if (size > CHIMEI_MAX_CALL_BYTES) {
    return chimei_fail(error, CHIME_RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE", "the call is %zu bytes; the limit is %u",
                       size, CHIMEI_MAX_CALL_BYTES);
  }
  uint8_t *buffer = malloc(4 + size);
  if (buffer == NULL) {
    return chimei_oom(error);
  }
  buffer[0] = (uint8_t)(size >> 24);
  buffer[1] = (uint8_t)(size >> 16);
  buffer[2] = (uint8_t)(size >> 8);
  buffer[3] = (uint8_t)size;
  chime__v1__frame__pack(frame, buffer + 4);
  int failure = write_all(client->fd, buffer, 4 + size);
  free(buffer);
  if (failure != 0) {
    return chimei_fail_connection(client, error, CHIME_UNAVAILABLE, "CONNECTION_CLOSED", "cannot write to chimed: %s",
                                  strerror(failure));
  }
  return CHIME_OK;
}

void chimei_send_cancel(chime_client *client, uint64_t call_id) {
  Chime__V1__Cancel cancel = CHIME__V1__CANCEL__INIT;
  Chime__V1__Frame frame = CHIME__V1__FRAME__INIT;
  frame.call_id = call_id;
  frame.kind_case = CHIME__V1__FRAME__KIND_CANCEL;
  frame.cancel = &cancel;
  (void)chimei_send_frame(client, &frame, NULL);
}

/* Reads exactly `length` bytes by `deadline` (monotonic ms; < 0 none), or until `stop_fd`
 * (an eventfd, -1 for none) is signalled. */
static enum chimei_read read_exact(int fd, int stop_fd, uint8_t *data, size_t length, int64_t deadline,
                                   int *error_number) {
  while (length > 0) {
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - chimei_monotonic_ms();
      if (left <= 0) {
        return CHIMEI_READ_TIMEOUT;
      }
      wait = left > 60000 ? 60000 : (int)left;
    }
    struct pollfd pollers[2] = {{.fd = fd, .events = POLLIN, .revents = 0},
                                {.fd = stop_fd, .events = POLLIN, .revents = 0}};
    int ready = poll(pollers, stop_fd >= 0 ? 2 : 1, wait);
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      *error_number = errno;
      return CHIMEI_READ_ERROR;
    }
    if (ready == 0) {
      continue; /* the deadline check above decides */
    }
    if (stop_fd >= 0 && (pollers[1].revents & POLLIN) != 0) {
      uint64_t count;
      (void)!read(stop_fd, &count, sizeof count); /* consume the stop */
      return CHIMEI_READ_STOPPED;
    }
    if (pollers[0].revents == 0) {
      continue;
    }
    ssize_t n = recv(fd, data, length, 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      *error_number = errno;
      return CHIMEI_READ_ERROR;
    }
    if (n == 0) {
      return CHIMEI_READ_EOF;
    }
    data += n;
    length -= (size_t)n;
  }
  return CHIMEI_READ_OK;
}

enum chimei_read chimei_read_frame(int fd, int stop_fd, int64_t deadline, Chime__V1__Frame **out,
                                   int *error_number) {
  *out = NULL;
  uint8_t header[4];
  enum chimei_read result = read_exact(fd, stop_fd, header, sizeof header, deadline, error_number);
  if (result != CHIMEI_READ_OK) {
    return result;
  }
  size_t length = (size_t)header[0] << 24 | (size_t)header[1] << 16 | (size_t)header[2] << 8 | header[3];
  if (length > CHIMEI_MAX_REPLY_BYTES) {
    return CHIMEI_READ_TOO_LARGE;
  }
  uint8_t *body = malloc(length > 0 ? length : 1);
  if (body == NULL) {
    return CHIMEI_READ_NO_MEMORY;
  }
  result = read_exact(fd, -1, body, length, deadline, error_number);
  if (result != CHIMEI_READ_OK) {
    free(body);
    return result == CHIMEI_READ_TIMEOUT ? CHIMEI_READ_PARTIAL_TIMEOUT : CHIMEI_READ_PARTIAL;
  }
  *out = chime__v1__frame__unpack(NULL, length, body);
  free(body);
  return *out != NULL ? CHIMEI_READ_OK : CHIMEI_READ_MALFORMED;
}
