// libsystemd for chimed: socket activation (sd_listen_fds, sd_is_socket_unix), readiness
// (sd_notify, sd_watchdog_enabled), structured logging (sd_journal_sendv), and sd-bus for the freedesktop notification presenter and for chimed's own D-Bus API.
// sd-bus's append/read calls are variadic, which Swift cannot call: the small non-variadic
// helpers below build and read exactly the messages chimed uses.
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-journal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>

static inline int chime_bus_append_string(sd_bus_message *m, const char *s) {
  return sd_bus_message_append_basic(m, 's', s);
}

static inline int chime_bus_append_u32(sd_bus_message *m, uint32_t v) {
  return sd_bus_message_append_basic(m, 'u', &v);
}

static inline int chime_bus_append_i32(sd_bus_message *m, int32_t v) {
  return sd_bus_message_append_basic(m, 'i', &v);
}

// One `{sv}` dict entry of the hints array: type is 's' (value), 'y' (byte) or 'b' (boolean).
static inline int chime_bus_append_hint(sd_bus_message *m, const char *key, char type, const char *string, uint32_t number) {
  int r = sd_bus_message_open_container(m, 'e', "sv");
  if (r < 0) return r;
  r = sd_bus_message_append_basic(m, 's', key);
  if (r < 0) return r;
  char contents[2] = {type, 0};
  r = sd_bus_message_open_container(m, 'v', contents);
  if (r < 0) return r;
  if (type == 's') {
    r = sd_bus_message_append_basic(m, 's', string);
  } else if (type == 'y') {
    uint8_t byte = (uint8_t)number;
    r = sd_bus_message_append_basic(m, 'y', &byte);
  } else {
    int boolean = number ? 1 : 0;
    r = sd_bus_message_append_basic(m, 'b', &boolean);
  }
  if (r < 0) return r;
  r = sd_bus_message_close_container(m);
  if (r < 0) return r;
  return sd_bus_message_close_container(m);
}

static inline int chime_bus_read_u32(sd_bus_message *m, uint32_t *v) {
  return sd_bus_message_read_basic(m, 'u', v);
}

// The string is owned by the message.
static inline int chime_bus_read_string(sd_bus_message *m, const char **s) {
  return sd_bus_message_read_basic(m, 's', s);
}

static inline void chime_bus_strv_free(char **strv) {
  if (!strv) return;
  for (char **p = strv; *p; p++) free(*p);
  free(strv);
}

// The error name and message of a method-error reply (NULL when it is not one).
static inline const char *chime_bus_error_message(sd_bus_message *m) {
  const sd_bus_error *e = sd_bus_message_get_error(m);
  if (!e) return NULL;
  return e->message ? e->message : e->name;
}

// Milliseconds until sd-bus wants to be called again, -1 for never (sd_bus_get_timeout gives
// an absolute CLOCK_MONOTONIC time in µs).
static inline int64_t chime_bus_timeout_millis(sd_bus *bus) {
  uint64_t at = 0;
  if (sd_bus_get_timeout(bus, &at) < 0 || at == UINT64_MAX) return -1;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t nowUS = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
  if (at <= nowUS) return 0;
  return (int64_t)((at - nowUS + 999) / 1000);
}

// A zeroed sd_bus_error (SD_BUS_ERROR_NULL is a macro Swift does not see).
static inline sd_bus_error chime_bus_error_null(void) {
  sd_bus_error e;
  memset(&e, 0, sizeof e);
  return e;
}

// What sd-bus waits for on its socket: bit 0 readable, bit 1 writable (negative: an error).
static inline int chime_bus_wanted_events(sd_bus *bus) {
  int e = sd_bus_get_events(bus);
  if (e < 0) return e;
  return ((e & POLLIN) ? 1 : 0) | ((e & POLLOUT) ? 2 : 0);
}

static inline const char *chime_strerror(int negative_errno) {
  return strerror(negative_errno < 0 ? -negative_errno : negative_errno);
}

// The boolean inside a variant (a Properties.Get reply).
static inline int chime_bus_read_variant_bool(sd_bus_message *m, int *value) {
  int r = sd_bus_message_enter_container(m, 'v', "b");
  if (r < 0) return r;
  r = sd_bus_message_read_basic(m, 'b', value);
  if (r < 0) return r;
  return sd_bus_message_exit_container(m);
}

// In a PropertiesChanged signal's changed properties (a{sv}, after the interface name, which
// the caller has read): 1 with *value set when `key` is among them as a boolean, 0 when not.
static inline int chime_bus_read_changed_bool(sd_bus_message *m, const char *key, int *value) {
  int r = sd_bus_message_enter_container(m, 'a', "{sv}");
  if (r < 0) return r;
  int found = 0;
  while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
    const char *name = NULL;
    r = sd_bus_message_read_basic(m, 's', &name);
    if (r < 0) return r;
    if (!found && name && strcmp(name, key) == 0 && sd_bus_message_verify_type(m, 'v', "b") > 0) {
      r = chime_bus_read_variant_bool(m, value);
      if (r < 0) return r;
      found = 1;
    } else {
      r = sd_bus_message_skip(m, "v");
      if (r < 0) return r;
    }
    r = sd_bus_message_exit_container(m);
    if (r < 0) return r;
  }
  if (r < 0) return r;
  r = sd_bus_message_exit_container(m);
  return r < 0 ? r : found;
}
