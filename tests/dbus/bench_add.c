/*
 * Add latency over chimed's D-Bus API beside the native socket, in one run: N adds (default
 * 1000) from one connection each, one at a time (each waits for its answer: chimed answers an
 * add once it is durable), after 50 unmeasured ones; prints p50, p90 and p99 and the ratio of
 * the p50s. Run by tests/dbus/bench.sh against a private bus and a chimed of its own.
 *
 *   bench_add SOCKET [N]        (the bus: $DBUS_SESSION_BUS_ADDRESS)
 */
#define _POSIX_C_SOURCE 200809L
#include <chime/chime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *name, double *us, int n) {
  qsort(us, (size_t)n, sizeof *us, by_value);
  printf("%-8s adds %d  p50 %.0f us  p90 %.0f us  p99 %.0f us\n", name, n, us[n / 2], us[n * 9 / 10], us[n * 99 / 100]);
}

static int fail(const char *what, int r) {
  fprintf(stderr, "bench_add: %s: %s\n", what, strerror(r < 0 ? -r : r));
  return 1;
}

/* One Add(s, a{sv} {title}, a{sv} {interval}, a{sv} {}) over the bus, waiting for its reply. */
static int bus_add(sd_bus *bus, const char *identifier) {
  sd_bus_message *m = NULL, *reply = NULL;
  sd_bus_error error = SD_BUS_ERROR_NULL;
  int r = sd_bus_message_new_method_call(bus, &m, "io.github.chime.Chime1", "/io/github/chime/Chime1",
                                         "io.github.chime.Chime1", "Add");
  if (r >= 0) r = sd_bus_message_append(m, "sa{sv}a{sv}a{sv}", identifier, 1, "title", "s", "Bench", 1, "interval", "d", 3600.0, 0);
  if (r >= 0) r = sd_bus_call(bus, m, 10 * 1000000, &error, &reply);
  if (r < 0 && error.message) fprintf(stderr, "bench_add: Add: %s: %s\n", error.name, error.message);
  sd_bus_error_free(&error);
  sd_bus_message_unref(reply);
  sd_bus_message_unref(m);
  return r;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_add SOCKET [N]\n");
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 1000;
  if (n < 10) n = 10;
  const int warmup = 50;
  double *native = calloc((size_t)n, sizeof *native), *bus_us = calloc((size_t)n, sizeof *bus_us);
  char id[64];

  chime_error *status = chime_error_new();
  chime_client *chime = NULL;
  if (chime_connect(&chime, argv[1], "org.example.bench.native", status) != CHIME_OK) {
    fprintf(stderr, "bench_add: connect: %s\n", chime_error_message(status));
    return 1;
  }
  sd_bus *bus = NULL;
  int r = sd_bus_open_user(&bus);
  if (r < 0) return fail("sd_bus_open_user", r);
  sd_bus_error error = SD_BUS_ERROR_NULL;
  r = sd_bus_call_method(bus, "io.github.chime.Chime1", "/io/github/chime/Chime1", "io.github.chime.Chime1", "Register",
                         &error, NULL, "sa{sv}", "org.example.bench.dbus", 0);
  if (r < 0) return fail("Register", r);

  for (int i = -warmup; i < n; i++) {
    snprintf(id, sizeof id, "n%d", i + warmup);
    double t = now_us();
    if (chime_add_interval(chime, id, "Bench", NULL, 3600, false, NULL, status) != CHIME_OK) {
      fprintf(stderr, "bench_add: native add: %s\n", chime_error_message(status));
      return 1;
    }
    if (i >= 0) native[i] = now_us() - t;
    snprintf(id, sizeof id, "d%d", i + warmup);
    t = now_us();
    if ((r = bus_add(bus, id)) < 0) return fail("Add", r);
    if (i >= 0) bus_us[i] = now_us() - t;
  }
  double native_p50, bus_p50;
  report("native", native, n);
  native_p50 = native[n / 2];
  report("d-bus", bus_us, n);
  bus_p50 = bus_us[n / 2];
  printf("ratio    d-bus p50 / native p50 = %.2f\n", bus_p50 / native_p50);
  sd_bus_unref(bus);
  chime_close(chime);
  chime_error_free(status);
  free(native);
  free(bus_us);
  return 0;
}
