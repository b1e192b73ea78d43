// libcanberra for chimed's sounds: a file by path or a sound-theme event, with a volume. The
// play call with properties is variadic (ca_context_play); this helper is not.
#include <canberra.h>
#include <math.h>
#include <stdio.h>

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
