// libcanberra for chimed's sounds: a file by path or a sound-theme event, with a volume. The
// play call with properties is variadic (ca_context_play); this helper is not.
#include <canberra.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

// The end of one play, for a thread that waits for it (an alarm's ring plays its sound again
// when a play ends). libcanberra calls chime_canberra_finished from its own thread when the
// sound ends or is cancelled.
typedef struct chime_canberra_end {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int ended;
  int error;
} chime_canberra_end;

static inline chime_canberra_end *chime_canberra_end_new(void) {
  chime_canberra_end *end = calloc(1, sizeof *end);
  if (!end) return NULL;
  pthread_mutex_init(&end->lock, NULL);
  pthread_cond_init(&end->changed, NULL);
  return end;
}

static inline void chime_canberra_end_free(chime_canberra_end *end) {
  if (!end) return;
  pthread_cond_destroy(&end->changed);
  pthread_mutex_destroy(&end->lock);
  free(end);
}

static void chime_canberra_finished(ca_context *c, uint32_t id, int error, void *userdata) {
  (void)c;
  (void)id;
  chime_canberra_end *end = userdata;
  pthread_mutex_lock(&end->lock);
  end->ended = 1;
  end->error = error;
  pthread_cond_broadcast(&end->changed);
  pthread_mutex_unlock(&end->lock);
}

// Waits until the play `end` watches has ended (finished, failed or cancelled), at most
// `timeout_ms`; returns its CA_ code (0 = played to the end, CA_ERROR_CANCELED = cancelled,
// CA_ERROR_STATE = still playing at the limit).
static inline int chime_canberra_end_wait(chime_canberra_end *end, int timeout_ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += timeout_ms / 1000;
  until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec += 1;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&end->lock);
  int waited = 0;
  while (!end->ended && waited == 0) waited = pthread_cond_timedwait(&end->changed, &end->lock, &until);
  int error = end->ended ? end->error : CA_ERROR_STATE;
  pthread_mutex_unlock(&end->lock);
  return error;
}

// Plays `filename` (when not NULL) or the theme event `event_id`, at `volume` (0...1; below 0:
// unchanged), without waiting for the end; `end` (when not NULL) is told when the sound ends.
// Returns a CA_ error code (0 = CA_SUCCESS); on an error the sound did not start and `end` is
// never told.
static inline int chime_canberra_play_watched(ca_context *c, uint32_t id, const char *filename, const char *event_id, double volume,
                                              chime_canberra_end *end) {
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
  if (r >= 0) r = ca_context_play_full(c, id, p, end ? chime_canberra_finished : NULL, end);
  ca_proplist_destroy(p);
  return r;
}

static inline int chime_canberra_play(ca_context *c, uint32_t id, const char *filename, const char *event_id, double volume) {
  return chime_canberra_play_watched(c, id, filename, event_id, volume, NULL);
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
