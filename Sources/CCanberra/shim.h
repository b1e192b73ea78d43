// libcanberra for chimed's sounds: a file by path or a sound-theme event, with a volume. The
// play call with properties is variadic (ca_context_play); this helper is not.
#include <canberra.h>
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// Plays `filename` (when not NULL) or the theme event `event_id`, at `volume` (0...1; below 0:
// unchanged), without waiting for the end. Returns a CA_ error code (0 = CA_SUCCESS).
static inline int chime_canberra_play(ca_context *c, uint32_t id, const char *filename, const char *event_id, double volume) {
  ca_proplist *p = NULL;
  int r = ca_proplist_create(&p);
  if (r < 0) return r;
  if (filename) r = ca_proplist_sets(p, CA_PROP_MEDIA_FILENAME, filename);
  if (r >= 0 && event_id) r = ca_proplist_sets(p, CA_PROP_EVENT_ID, event_id);
  if (r >= 0) r = ca_proplist_sets(p, CA_PROP_APPLICATION_NAME, "Chime");
  if (r >= 0 && volume >= 0) {
    char db[32];
    // canberra.volume is in dB: 0 is unchanged, -inf silent.
    snprintf(db, sizeof db, "%.2f", volume > 0 ? 20.0 * log10(volume) : -96.0);
    r = ca_proplist_sets(p, CA_PROP_CANBERRA_VOLUME, db);
  }
  if (r >= 0) r = ca_context_play_full(c, id, p, NULL, NULL);
  ca_proplist_destroy(p);
  return r;
}

// ALSA's own error lines (libcanberra's ALSA driver loads libasound, which prints them to
// chimed's stderr, the log, unprefixed) are routed to chime_alsa_said, which CanberraContext
// defines (in Swift) to keep them until it logs them as one line.
void chime_alsa_said(const char *line);

// snd_lib_error_handler_t, declared here: chimed does not build against ALSA's headers.
typedef void (*chime_alsa_error_handler)(const char *file, int line, const char *function, int err, const char *fmt, ...);

// One ALSA message, worded as alsa-lib's default handler words it.
static void chime_alsa_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
  char message[512], text[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  snprintf(text, sizeof text, "ALSA lib %s:%d:(%s) %s%s%s", file ? file : "", line, function ? function : "", message,
           err ? ": " : "", err ? strerror(err < 0 ? -err : err) : "");
  chime_alsa_said(text);
}

// Routes ALSA's messages to chime_alsa_said when libasound is loaded (by libcanberra's ALSA
// driver); returns 1 when it is. Looked up at run time: chimed does not link libasound.
static inline int chime_alsa_route_errors(void) {
  void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_NOLOAD);
  if (!library) return 0;
  int (*set_handler)(chime_alsa_error_handler) = (int (*)(chime_alsa_error_handler))dlsym(library, "snd_lib_error_set_handler");
  if (set_handler) set_handler(chime_alsa_error);
  dlclose(library);
  return set_handler != NULL;
}
