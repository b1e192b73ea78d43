/*
 * Tests for libchime-client against the real chimed.
 *
 * Starts $CHIME_BIN_DIR/chimed (CHIME_BIN_DIR is required; the Makefile sets it) on a socket
 * in a fresh directory under /tmp, waits for its "chimed listening on <path>" line, runs the
 * tests, then stops it with SIGTERM and expects a clean exit. CHECK is a non-aborting assert:
 * a test fails when any of its checks fails, and the run ends with "N passed, M failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib.h>

#include <chime/chime-proto.h> /* the raw protobuf-c access, for the tests of chime_call and deadlines */
#include <chime/chime.h>

#include "chime/v1/frame.pb-c.h"

/* ---- a tiny harness ---------------------------------------------------------------------- */

static int checks_failed; /* in the current test */

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
      checks_failed++;                                                               \
    }                                                                                \
  } while (0)

#define CHECK_OK(expr, st)                                                                                \
  do {                                                                                                    \
    int code_ = (expr);                                                                                   \
    if (code_ != CHIME_OK) {                                                                              \
      fprintf(stderr, "    %s:%d: %s failed: %s (%s): %s\n", __FILE__, __LINE__, #expr,                    \
              chime_code_name(code_), chime_error_reason(st), chime_error_message(st));                                         \
      checks_failed++;                                                                                    \
    }                                                                                                     \
  } while (0)

#define CHECK_STR(actual, expected)                                                                    \
  do {                                                                                                 \
    const char *a_ = (actual), *e_ = (expected);                                                       \
    if (a_ == NULL || strcmp(a_, e_) != 0) {                                                           \
      fprintf(stderr, "    %s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual,        \
              a_ != NULL ? a_ : "(null)", e_);                                                         \
      checks_failed++;                                                                                 \
    }                                                                                                  \
  } while (0)

static int passed, failed;

/* The error every call of the main thread fills (threads have their own). */
static chime_error *st;

static void run(const char *name, void (*test)(void)) {
  checks_failed = 0;
  test();
  if (checks_failed == 0) {
    passed++;
    printf("ok   %s\n", name);
  } else {
    failed++;
    printf("FAIL %s (%d checks)\n", name, checks_failed);
  }
  fflush(stdout);
}

static int64_t now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static int64_t monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* ---- the daemon -------------------------------------------------------------------------- */

static char root[64];
static char socket_path[128];
static char log_path[128];
static pid_t daemon_pid = -1;

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static void print_daemon_log(void) {
  FILE *log = fopen(log_path, "r");
  if (log == NULL) {
    return;
  }
  fprintf(stderr, "---- chimed log ----\n");
  char line[1024];
  while (fgets(line, sizeof line, log) != NULL) {
    fputs(line, stderr);
  }
  fclose(log);
}

/* Starts chimed; exits the test program if it does not come up. */
static void start_daemon(void) {
  const char *bin_dir = getenv("CHIME_BIN_DIR");
  if (bin_dir == NULL || bin_dir[0] == '\0') {
    fprintf(stderr, "CHIME_BIN_DIR is not set (the directory holding chimed)\n");
    exit(2);
  }
  char binary[4096];
  snprintf(binary, sizeof binary, "%s/chimed", bin_dir);
  if (access(binary, X_OK) != 0) {
    fprintf(stderr, "no chimed at %s: build it (swift build --product chimed) or set CHIME_BIN_DIR\n", binary);
    exit(2);
  }
  snprintf(root, sizeof root, "/tmp/chime-c-XXXXXX");
  if (mkdtemp(root) == NULL) {
    perror("mkdtemp");
    exit(2);
  }
  snprintf(socket_path, sizeof socket_path, "%s/chimed.sock", root);
  snprintf(log_path, sizeof log_path, "%s/chimed.log", root);
  char data_dir[128];
  snprintf(data_dir, sizeof data_dir, "%s/data", root);

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    perror("pipe2");
    exit(2);
  }
  daemon_pid = fork();
  if (daemon_pid < 0) {
    perror("fork");
    exit(2);
  }
  if (daemon_pid == 0) {
    int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int null = open("/dev/null", O_RDONLY);
    if (log < 0 || null < 0 || dup2(out[1], 1) < 0 || dup2(log, 2) < 0 || dup2(null, 0) < 0) {
      _exit(127);
    }
    char runtime[160], state[160], share[160];
    snprintf(runtime, sizeof runtime, "%s/run", root);
    snprintf(state, sizeof state, "%s/state", root);
    snprintf(share, sizeof share, "%s/share", root);
    setenv("XDG_RUNTIME_DIR", runtime, 1);
    setenv("XDG_STATE_HOME", state, 1);
    setenv("XDG_DATA_HOME", share, 1);
    setenv("SWIFT_BACKTRACE", "enable=no", 1);
    unsetenv("CHIME_SOCKET");
    execl(binary, "chimed", "--socket", socket_path, "--data-dir", data_dir, (char *)NULL);
    _exit(127);
  }
  close(out[1]);

  /* Wait (bounded) for the readiness line. */
  char expected[256];
  snprintf(expected, sizeof expected, "chimed listening on %s\n", socket_path);
  char seen[4096];
  size_t used = 0;
  int64_t deadline = monotonic_ms() + 20000;
  for (;;) {
    int64_t left = deadline - monotonic_ms();
    struct pollfd poller = {.fd = out[0], .events = POLLIN, .revents = 0};
    int ready = left > 0 ? poll(&poller, 1, (int)left) : 0;
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    ssize_t n = ready > 0 ? read(out[0], seen + used, sizeof seen - 1 - used) : -1;
    if (n <= 0) {
      fprintf(stderr, "chimed did not report \"%.*s\" within 20 s\n", (int)strlen(expected) - 1, expected);
      kill(daemon_pid, SIGKILL);
      waitpid(daemon_pid, NULL, 0);
      print_daemon_log();
      nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
      exit(2);
    }
    used += (size_t)n;
    seen[used] = '\0';
    if (strstr(seen, expected) != NULL) {
      break;
    }
    if (used == sizeof seen - 1) {
      used = 0; /* keep reading; the line is short */
    }
  }
  close(out[0]); /* chimed prints nothing else on stdout */
}

/* SIGTERM, then a bounded wait; returns the exit status (or -signal, or -1000 on a hang). */
static int stop_daemon(void) {
  if (daemon_pid < 0) {
    return 0;
  }
  kill(daemon_pid, SIGTERM);
  int64_t deadline = monotonic_ms() + 10000;
  int wstatus = 0;
  pid_t done = 0;
  while ((done = waitpid(daemon_pid, &wstatus, WNOHANG)) == 0 && monotonic_ms() < deadline) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  int result;
  if (done == 0) {
    kill(daemon_pid, SIGKILL);
    waitpid(daemon_pid, NULL, 0);
    result = -1000;
  } else if (WIFEXITED(wstatus)) {
    result = WEXITSTATUS(wstatus);
  } else {
    result = -WTERMSIG(wstatus);
  }
  daemon_pid = -1;
  return result;
}

static chime_client *connect_app(const char *app) {
  chime_client *client = NULL;
  CHECK_OK(chime_connect(&client, socket_path, app, st), st);
  if (client != NULL) {
    chime_set_timeout_ms(client, 10000);
  }
  return client;
}

static bool has_id(const chime_notification_list *list, const char *identifier) {
  for (size_t i = 0; i < chime_notification_list_count(list); i++) {
    if (strcmp(chime_notification_identifier(chime_notification_list_at(list, i)), identifier) == 0) {
      return true;
    }
  }
  return false;
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_add_pending_remove(void) {
  chime_client *c = connect_app("org.example.ctest.basic");
  if (c == NULL) return;
  int64_t before = now_ms(), next_fire = 0;
  CHECK_OK(chime_add_interval(c, "tea", "Tea", "Ready", 3600, false, &next_fire, st), st);
  CHECK(chime_error_code(st) == CHIME_OK && chime_error_reason(st)[0] == '\0');
  CHECK(next_fire >= before + 3600000 && next_fire <= now_ms() + 3600000);
  CHECK_OK(chime_add_interval(c, "coffee", "Coffee", NULL, 7200, true, NULL, st), st);

  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 2);
  CHECK(has_id(list, "tea") && has_id(list, "coffee"));
  for (size_t i = 0; i < chime_notification_list_count(list); i++) {
    if (strcmp(chime_notification_identifier(chime_notification_list_at(list, i)), "coffee") == 0) {
      CHECK_STR(chime_notification_title(chime_notification_list_at(list, i)), "Coffee");
      CHECK_STR(chime_notification_body(chime_notification_list_at(list, i)), "");
      CHECK(chime_notification_repeats(chime_notification_list_at(list, i)) && chime_notification_interval_seconds(chime_notification_list_at(list, i)) == 7200);
    } else {
      CHECK_STR(chime_notification_body(chime_notification_list_at(list, i)), "Ready");
      CHECK(!chime_notification_repeats(chime_notification_list_at(list, i)) && chime_notification_interval_seconds(chime_notification_list_at(list, i)) == 3600);
      CHECK(chime_notification_next_fire_unix_ms(chime_notification_list_at(list, i)) == next_fire);
    }
  }
  chime_notification_list_free(list);

  const char *gone[] = {"tea", "no-such-request"};
  chime_id_list *removed = NULL;
  CHECK_OK(chime_remove(c, gone, 2, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 1 && strcmp(chime_id_list_at(removed, 0), "tea") == 0);
  chime_id_list_free(removed);

  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1 && has_id(list, "coffee"));
  chime_notification_list_free(list);

  CHECK_OK(chime_remove_all(c, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 1 && strcmp(chime_id_list_at(removed, 0), "coffee") == 0);
  chime_id_list_free(removed);
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 0);
  chime_notification_list_free(list);
  CHECK_OK(chime_remove(c, NULL, 0, NULL, st), st); /* nothing to remove is fine */
  chime_close(c);
}

static void test_same_identifier_replaces(void) {
  chime_client *c = connect_app("org.example.ctest.replace");
  if (c == NULL) return;
  CHECK_OK(chime_add_interval(c, "walk", "Walk", NULL, 600, false, NULL, st), st);
  CHECK_OK(chime_add_interval(c, "walk", "Walk the dog", NULL, 900, false, NULL, st), st);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1);
  if (chime_notification_list_count(list) == 1) {
    CHECK_STR(chime_notification_title(chime_notification_list_at(list, 0)), "Walk the dog");
    CHECK(chime_notification_interval_seconds(chime_notification_list_at(list, 0)) == 900);
  }
  chime_notification_list_free(list);
  CHECK_OK(chime_remove_all(c, NULL, st), st);
  chime_close(c);
}

static void test_many_pages(void) {
  chime_client *c = connect_app("org.example.ctest.pages");
  if (c == NULL) return;
  char id[32];
  for (int i = 0; i < 250; i++) {
    snprintf(id, sizeof id, "r%03d", i);
    CHECK_OK(chime_add_interval(c, id, id, NULL, 1000 + i, false, NULL, st), st);
  }
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st); /* default page size is 100: three pages */
  CHECK(chime_notification_list_count(list) == 250);
  CHECK(has_id(list, "r000") && has_id(list, "r249"));
  chime_notification_list_free(list);
  chime_id_list *removed = NULL;
  CHECK_OK(chime_remove_all(c, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 250);
  chime_id_list_free(removed);
  chime_close(c);
}

static void test_invalid_interval(void) {
  chime_client *c = connect_app("org.example.ctest.errors");
  if (c == NULL) return;
  int code = chime_add_interval(c, "nag", "Nag", NULL, 30, true, NULL, st);
  CHECK(code == CHIME_INVALID_ARGUMENT && chime_error_code(st) == 3);
  CHECK_STR(chime_error_reason(st), "INVALID_INTERVAL");
  CHECK(strstr(chime_error_field(st), "time_interval.seconds") != NULL);
  CHECK(chime_error_message(st)[0] != '\0');

  code = chime_add_interval(c, "neg", "Neg", NULL, -1, false, NULL, st);
  CHECK(code == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_INTERVAL");

  code = chime_add_interval(c, "empty", NULL, NULL, 60, false, NULL, st);
  CHECK(code == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "NOTIFICATION_INVALID_NO_CONTENT");

  /* Nothing was added, and the connection still works after error statuses. */
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 0);
  chime_notification_list_free(list);
  CHECK_OK(chime_add_interval(c, "ok", "Ok", NULL, 60, true, NULL, st), st);
  CHECK_OK(chime_remove_all(c, NULL, st), st);
  chime_close(c);
}

static void test_ring(void) {
  chime_client *c = connect_app("org.example.ctest.ring");
  if (c == NULL) return;
  chime_request *alarm = chime_request_new("alarm");
  CHECK_OK(chime_request_set_title(alarm, "Wake up"), st);
  CHECK_OK(chime_request_set_interval(alarm, 3600, false), st);
  CHECK_OK(chime_request_set_ring(alarm, 300), st);
  chime_notification *added = NULL;
  CHECK_OK(chime_add(c, alarm, &added, st), st);
  const Chime__V1__PendingRequest *stored = added != NULL ? chime_notification_pending_message(added) : NULL;
  CHECK(stored != NULL && stored->request->content->ring != NULL && stored->request->content->ring->seconds == 300);
  /* No sound given: the default sound rings. */
  CHECK(stored != NULL && stored->request->content->sound != NULL &&
        stored->request->content->sound->kind == CHIME__V1__SOUND_KIND__SOUND_KIND_DEFAULT);
  chime_notification_free(added);
  chime_request_free(alarm);

  chime_request *short_ring = chime_request_new("short");
  CHECK_OK(chime_request_set_title(short_ring, "Short"), st);
  CHECK_OK(chime_request_set_interval(short_ring, 3600, false), st);
  CHECK_OK(chime_request_set_ring(short_ring, 2), st);
  CHECK(chime_add(c, short_ring, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_RING");
  chime_request_free(short_ring);
  CHECK(chime_request_set_ring(NULL, 60) == CHIME_INVALID_ARGUMENT);

  /* Auto-snooze rides on the ring: kept, refused without a ring and above 10. */
  chime_request *nap = chime_request_new("nap");
  CHECK_OK(chime_request_set_title(nap, "Up"), st);
  CHECK_OK(chime_request_set_interval(nap, 3600, false), st);
  CHECK(chime_request_set_ring_auto_snooze(nap, 3) == CHIME_INVALID_ARGUMENT);
  CHECK_OK(chime_request_set_ring(nap, 120), st);
  CHECK_OK(chime_request_set_ring_auto_snooze(nap, 3), st);
  chime_notification *napped = NULL;
  CHECK_OK(chime_add(c, nap, &napped, st), st);
  const Chime__V1__PendingRequest *kept = napped != NULL ? chime_notification_pending_message(napped) : NULL;
  CHECK(kept != NULL && kept->request->content->ring != NULL && kept->request->content->ring->auto_snooze == 3);
  chime_notification_free(napped);
  CHECK_OK(chime_request_set_ring_auto_snooze(nap, 11), st);
  CHECK(chime_add(c, nap, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_RING");
  chime_request_free(nap);
  CHECK_OK(chime_remove_all(c, NULL, st), st);
  chime_close(c);
}

static void test_app_isolation(void) {
  chime_client *a = connect_app("org.example.ctest.iso-a");
  chime_client *b = connect_app("org.example.ctest.iso-b");
  if (a == NULL || b == NULL) {
    chime_close(a);
    chime_close(b);
    return;
  }
  CHECK_OK(chime_add_interval(a, "shared", "A's", NULL, 600, false, NULL, st), st);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(b, &list, st), st);
  CHECK(chime_notification_list_count(list) == 0);
  chime_notification_list_free(list);
  const char *ids[] = {"shared"};
  chime_id_list *removed = NULL;
  CHECK_OK(chime_remove(b, ids, 1, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 0);
  chime_id_list_free(removed);
  CHECK_OK(chime_add_interval(b, "shared", "B's", NULL, 600, false, NULL, st), st);

  CHECK_OK(chime_pending(a, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1 && strcmp(chime_notification_title(chime_notification_list_at(list, 0)), "A's") == 0);
  chime_notification_list_free(list);
  CHECK_OK(chime_remove_all(b, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 1);
  chime_id_list_free(removed);
  CHECK_OK(chime_pending(a, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1);
  chime_notification_list_free(list);
  CHECK_OK(chime_remove_all(a, NULL, st), st);
  chime_close(a);
  chime_close(b);
}

static void test_bad_app_and_unimplemented(void) {
  chime_client *bad = connect_app("not a reverse-dns id!");
  if (bad == NULL) return;
  chime_notification_list *list = NULL;
  CHECK(chime_pending(bad, &list, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_APP_ID");
  chime_close(bad);

  chime_client *c = connect_app("org.example.ctest.unimplemented");
  if (c == NULL) return;
  uint8_t *reply = NULL;
  size_t reply_len = 0;
  CHECK(chime_call(c, "NoSuchMethod", NULL, 0, &reply, &reply_len, st) == CHIME_UNIMPLEMENTED);
  CHECK(chime_error_code(st) == 12 && reply == NULL);
  CHECK(chime_call(c, "/chime.v1.NotificationCenter/NoSuchMethod", NULL, 0, NULL, NULL, st) == CHIME_UNIMPLEMENTED);
  CHECK_OK(chime_pending(c, &list, st), st);
  chime_notification_list_free(list);
  chime_close(c);
}

/* The invitation category of the tests: three actions, one with text input. */
static chime_category *make_invite(void) {
  chime_category *invite = chime_category_new("event-invite");
  CHECK(invite != NULL);
  CHECK_OK(chime_category_set_options(invite, CHIME_CATEGORY_CUSTOM_DISMISS_ACTION), st);
  CHECK_OK(chime_category_add_action(invite, "accept", "Accept", 0), st);
  CHECK_OK(chime_category_add_action(invite, "decline", "Decline", CHIME_ACTION_DESTRUCTIVE), st);
  CHECK_OK(chime_category_add_action(invite, "comment", "Comment", 0), st);
  CHECK_OK(chime_category_set_action_text_input(invite, 2, "Send", "Type here..."), st);
  CHECK_OK(chime_category_add_intent(invite, "intent.reply"), st);
  CHECK_OK(chime_category_set_summary_format(invite, "%u more invitations"), st);
  return invite;
}

static void test_categories(void) {
  chime_client *c = connect_app("org.example.ctest.categories");
  if (c == NULL) return;
  chime_category_list *list = NULL;
  CHECK_OK(chime_categories(c, &list, st), st);
  CHECK(chime_category_list_count(list) == 0);
  chime_category_list_free(list);

  chime_category *invite = make_invite();
  chime_category *plain = chime_category_new("plain");
  const chime_category *both[] = {invite, plain};
  CHECK_OK(chime_set_categories(c, both, 2, st), st);
  CHECK_OK(chime_categories(c, &list, st), st);
  CHECK(chime_category_list_count(list) == 2);
  if (chime_category_list_count(list) == 2) {
    const chime_category *got = chime_category_list_at(list, 0);
    CHECK_STR(chime_category_identifier(got), "event-invite");
    CHECK(chime_category_options(got) == CHIME_CATEGORY_CUSTOM_DISMISS_ACTION);
    CHECK(chime_category_action_count(got) == 3);
    CHECK_STR(chime_category_summary_format(got), "%u more invitations");
    CHECK(chime_category_intent_count(got) == 1);
    CHECK_STR(chime_category_intent_at(got, 0), "intent.reply");
    if (chime_category_action_count(got) == 3) {
      CHECK_STR(chime_category_action_identifier(got, 1), "decline");
      CHECK(chime_category_action_options(got, 1) == CHIME_ACTION_DESTRUCTIVE);
      CHECK(!chime_category_action_has_text_input(got, 1));
      CHECK(chime_category_action_has_text_input(got, 2));
      CHECK_STR(chime_category_action_text_input_button_title(got, 2), "Send");
      CHECK_STR(chime_category_action_text_input_placeholder(got, 2), "Type here...");
    }
    CHECK_STR(chime_category_identifier(chime_category_list_at(list, 1)), "plain");
    CHECK(chime_category_action_count(chime_category_list_at(list, 1)) == 0);
    chime_category_free((chime_category *)chime_category_list_at(list, 0)); /* borrowed: left alone */
  }
  chime_category_list_free(list);
  chime_category_free(invite);
  chime_category_free(plain);

  /* A refusal names its field and changes nothing. */
  chime_category *bad = chime_category_new("bad");
  chime_category_add_action(bad, "a", "A", 0);
  chime_category_add_action(bad, "a", "B", 0);
  CHECK(chime_set_categories(c, (const chime_category *const[]){bad}, 1, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "DUPLICATE_ACTION_IDENTIFIER");
  CHECK_STR(chime_error_field(st), "categories[0].actions[1].identifier");
  /* A setter given a bad argument makes the call fail before sending. */
  CHECK(chime_category_set_action_icon(bad, 5, "x.png") == CHIME_INVALID_ARGUMENT);
  CHECK(chime_set_categories(c, (const chime_category *const[]){bad}, 1, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_ARGUMENT");
  chime_category_free(bad);
  CHECK_OK(chime_categories(c, &list, st), st);
  CHECK(chime_category_list_count(list) == 2);
  chime_category_list_free(list);

  CHECK_OK(chime_set_categories(c, NULL, 0, st), st);
  CHECK_OK(chime_categories(c, &list, st), st);
  CHECK(chime_category_list_count(list) == 0);
  chime_category_list_free(list);
  chime_close(c);
}

static void test_respond(void) {
  chime_client *c = connect_app("org.example.ctest.respond");
  if (c == NULL) return;
  chime_category *invite = make_invite();
  CHECK_OK(chime_set_categories(c, (const chime_category *const[]){invite}, 1, st), st);
  chime_category_free(invite);
  CHECK_OK(chime_add_now(c, "lunch", "Lunch", NULL, "event-invite", st), st);
  CHECK_OK(chime_add_now(c, "team", "Team", NULL, "event-invite", st), st);
  CHECK_OK(chime_add_now(c, "plain", "Plain", NULL, NULL, st), st);

  bool removed = false;
  CHECK(chime_respond(c, "nope", NULL, NULL, &removed, st) == CHIME_NOT_FOUND);
  CHECK_STR(chime_error_reason(st), "NOTIFICATION_NOT_DELIVERED");
  CHECK(chime_respond(c, "lunch", "maybe", NULL, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "UNKNOWN_ACTION");
  CHECK(chime_respond(c, "lunch", "comment", NULL, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "TEXT_REQUIRED");
  CHECK_STR(chime_error_field(st), "response.user_text");
  CHECK(chime_respond(c, "lunch", "accept", "yes", NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "TEXT_NOT_ACCEPTED");
  CHECK(chime_respond(c, "plain", CHIME_DISMISS_ACTION, NULL, NULL, st) == CHIME_FAILED_PRECONDITION);
  CHECK_STR(chime_error_reason(st), "DISMISS_NOT_ENABLED");

  CHECK_OK(chime_respond(c, "lunch", "comment", "Running late", &removed, st), st);
  CHECK(removed);
  CHECK_OK(chime_respond(c, "team", CHIME_DISMISS_ACTION, NULL, &removed, st), st);
  CHECK_OK(chime_respond(c, "plain", NULL, NULL, &removed, st), st);
  CHECK(chime_respond(c, "plain", NULL, NULL, &removed, st) == CHIME_NOT_FOUND);
  CHECK(!removed);
  chime_close(c);
}

/* Snooze: the delivered notification becomes a snoozed pending entry; refusals; removal cancels. */
static void test_snooze(void) {
  chime_client *c = connect_app("org.example.ctest.snooze");
  if (c == NULL) return;
  CHECK_OK(chime_add_now(c, "tea", "Tea", NULL, NULL, st), st);
  CHECK(chime_snooze(c, "tea", 59, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_SNOOZE_DURATION");
  CHECK(chime_snooze(c, "coffee", 600, NULL, st) == CHIME_NOT_FOUND);
  CHECK_STR(chime_error_reason(st), "NOTIFICATION_NOT_DELIVERED");
  CHECK(chime_snooze(NULL, "tea", 600, NULL, st) != CHIME_OK);
  chime_notification *entry = NULL;
  CHECK_OK(chime_snooze(c, "tea", 600, &entry, st), st);
  CHECK(chime_notification_snooze_count(entry) == 1);
  CHECK_STR(chime_notification_title(entry), "Tea");
  CHECK(chime_notification_next_fire_unix_ms(entry) - chime_notification_added_unix_ms(entry) == 600000);
  chime_notification_free(entry);
  chime_notification_list *delivered = NULL;
  CHECK_OK(chime_delivered(c, &delivered, st), st);
  CHECK(chime_notification_list_count(delivered) == 0);
  chime_notification_list_free(delivered);
  chime_notification_list *pending = NULL;
  CHECK_OK(chime_pending(c, &pending, st), st);
  CHECK(chime_notification_list_count(pending) == 1 && chime_notification_snooze_count(chime_notification_list_at(pending, 0)) == 1);
  chime_notification_list_free(pending);
  const char *ids[] = {"tea"};
  chime_id_list *removed = NULL;
  CHECK_OK(chime_remove(c, ids, 1, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 1);
  chime_id_list_free(removed);
  CHECK_OK(chime_pending(c, &pending, st), st);
  CHECK(chime_notification_list_count(pending) == 0);
  chime_notification_list_free(pending);

  /* A category's snooze buttons, and one chosen as the user's response. */
  chime_category *alarm = chime_category_new("alarm");
  CHECK(chime_category_add_snooze(alarm, 300) == CHIME_OK);
  CHECK(chime_category_add_snooze(alarm, 3600) == CHIME_OK);
  CHECK_OK(chime_set_categories(c, (const chime_category *const[]){alarm}, 1, st), st);
  chime_category_free(alarm);
  chime_category_list *categories = NULL;
  CHECK_OK(chime_categories(c, &categories, st), st);
  const chime_category *got = chime_category_list_at(categories, 0);
  CHECK(chime_category_snooze_count(got) == 2 && chime_category_snooze_at(got, 1) == 3600 && chime_category_snooze_at(got, 2) == 0);
  chime_category_list_free(categories);
  CHECK_OK(chime_add_now(c, "wake", "Wake", NULL, "alarm", st), st);
  bool removed_now = false;
  CHECK(chime_respond_snooze(c, "wake", 600, &removed_now, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "SNOOZE_NOT_OFFERED");
  CHECK_OK(chime_respond_snooze(c, "wake", 300, &removed_now, st), st);
  CHECK(removed_now);
  CHECK_OK(chime_pending(c, &pending, st), st);
  CHECK(chime_notification_list_count(pending) == 1 && chime_notification_snooze_count(chime_notification_list_at(pending, 0)) == 1);
  chime_notification_list_free(pending);
  chime_close(c);
}

/* chime_call with the generated messages: a 0.2 s request is delivered (polled, bounded). */
static void test_generic_call_sees_delivery(void) {
  chime_client *c = connect_app("org.example.ctest.delivered");
  if (c == NULL) return;
  CHECK_OK(chime_add_interval(c, "soon", "Soon", NULL, 0.2, false, NULL, st), st);
  bool delivered = false;
  int64_t deadline = monotonic_ms() + 10000;
  while (!delivered && monotonic_ms() < deadline) {
    Chime__V1__PageRequest page;
    chime__v1__page_request__init(&page);
    uint8_t payload[64];
    size_t len = chime__v1__page_request__pack(&page, payload);
    uint8_t *reply = NULL;
    size_t reply_len = 0;
    CHECK_OK(chime_call(c, "GetDelivered", payload, len, &reply, &reply_len, st), st);
    if (chime_error_code(st) != CHIME_OK) break;
    Chime__V1__GetDeliveredResponse *response =
        chime__v1__get_delivered_response__unpack(NULL, reply_len, reply != NULL ? reply : payload);
    free(reply);
    CHECK(response != NULL);
    if (response == NULL) break;
    for (size_t i = 0; i < response->n_notifications; i++) {
      const Chime__V1__DeliveredNotification *n = response->notifications[i];
      if (n->request != NULL && strcmp(n->request->identifier, "soon") == 0) {
        delivered = true;
        CHECK(n->delivered_unix_ms >= n->due_unix_ms);
        CHECK(n->request->content != NULL && strcmp(n->request->content->title, "Soon") == 0);
      }
    }
    chime__v1__get_delivered_response__free_unpacked(response, NULL);
    if (!delivered) {
      struct timespec pause = {0, 20 * 1000 * 1000};
      nanosleep(&pause, NULL);
    }
  }
  CHECK(delivered);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 0);
  chime_notification_list_free(list);
  CHECK_OK(chime_call(c, "RemoveAllDelivered", NULL, 0, NULL, NULL, st), st);
  chime_close(c);
}

/* ---- every rpc ---------------------------------------------------------------------------- */

/* Copies `from` to `to`; true on success. */
static bool copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  FILE *out = in != NULL ? fopen(to, "wb") : NULL;
  bool copied = in != NULL && out != NULL;
  char buffer[8192];
  size_t n;
  while (copied && (n = fread(buffer, 1, sizeof buffer, in)) > 0) {
    copied = fwrite(buffer, 1, n, out) == n;
  }
  if (in != NULL) fclose(in);
  if (out != NULL && fclose(out) != 0) copied = false;
  return copied;
}

/* A request for 9:30 every day in UTC (only in `month` when it is not 0). */
static chime_request *standup(const char *identifier, int32_t month) {
  chime_request *r = chime_request_new(identifier);
  CHECK(r != NULL);
  CHECK_OK(chime_request_set_title(r, "Standup"), st);
  CHECK_OK(chime_request_set_body(r, "Daily"), st);
  CHECK_OK(chime_request_set_calendar(r, "UTC", true), st);
  CHECK_OK(chime_request_set_date_component(r, CHIME_HOUR, 9), st);
  CHECK_OK(chime_request_set_date_component(r, CHIME_MINUTE, 30), st);
  if (month != 0) {
    CHECK_OK(chime_request_set_date_component(r, CHIME_MONTH, month), st);
  }
  return r;
}

static void test_calendar_and_next_dates(void) {
  chime_client *c = connect_app("org.example.ctest.calendar");
  if (c == NULL) return;
  chime_request *daily = standup("standup", 0);
  chime_notification *added = NULL;
  CHECK_OK(chime_add(c, daily, &added, st), st);
  int64_t next = chime_notification_next_fire_unix_ms(added);
  CHECK(chime_notification_state(added) == CHIME_STATE_PENDING && !chime_notification_replaced(added));
  CHECK(chime_notification_trigger_kind(added) == CHIME_TRIGGER_CALENDAR);
  chime_notification_free(added);
  CHECK(next > now_ms() && next <= now_ms() + 86400000);
  CHECK(next % 86400000 == (9 * 3600 + 30 * 60) * 1000);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1);
  const chime_notification *item = chime_notification_list_at(list, 0);
  CHECK(chime_notification_repeats(item) && chime_notification_next_fire_unix_ms(item) == next);
  CHECK(chime_notification_state(item) == CHIME_STATE_PENDING && chime_notification_added_unix_ms(item) > 0);
  chime_notification_list_free(list);

  chime_date_list *dates = NULL;
  const int64_t new_year_2026 = 1767225600000; /* 2026-01-01T00:00:00Z */
  CHECK_OK(chime_next_trigger_dates(c, daily, new_year_2026, 3, &dates, st), st);
  CHECK(chime_date_list_count(dates) == 3);
  if (chime_date_list_count(dates) == 3) {
    for (size_t i = 0; i < 3; i++) {
      CHECK(chime_date_list_unix_ms(dates, i) == new_year_2026 + (int64_t)i * 86400000 + (9 * 3600 + 30 * 60) * 1000);
    }
    CHECK_STR(chime_date_list_time_zone(dates, 0), "UTC");
    CHECK(chime_date_list_utc_offset_seconds(dates, 0) == 0);
  }
  chime_date_list_free(dates);
  chime_request_free(daily);
  chime_request *interval = chime_request_new("interval");
  CHECK_OK(chime_request_set_interval(interval, 120, true), st);
  CHECK_OK(chime_next_trigger_dates(c, interval, new_year_2026, 2, &dates, st), st);
  CHECK(chime_date_list_count(dates) == 2 && chime_date_list_unix_ms(dates, 1) - chime_date_list_unix_ms(dates, 0) == 120000);
  chime_date_list_free(dates);
  chime_request_free(interval);
  chime_request *bad = standup("bad", 13);
  CHECK(chime_next_trigger_dates(c, bad, 0, 1, &dates, st) == CHIME_INVALID_ARGUMENT);
  CHECK(dates == NULL && chime_error_reason(st)[0] != '\0');
  CHECK(chime_add(c, bad, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK(strstr(chime_error_field(st), "month") != NULL);
  CHECK(chime_request_set_date_component(bad, 99, 1) == CHIME_INVALID_ARGUMENT);
  CHECK(chime_add(c, bad, NULL, st) == CHIME_INVALID_ARGUMENT); /* the bad setter is reported */
  CHECK_STR(chime_error_reason(st), "INVALID_ARGUMENT");
  chime_request_free(bad);
  chime_close(c);
}

/* Weekday sets, ends on repeating triggers and recurrence rules, as the daemon stores them. */
static void test_weekdays_ends_and_recurrence(void) {
  chime_client *c = connect_app("org.example.ctest.recurrence");
  if (c == NULL) return;
  chime_request *workdays = standup("workdays", 0);
  const int32_t monday_to_friday[] = {2, 3, 4, 5, 6};
  CHECK_OK(chime_request_set_weekdays(workdays, monday_to_friday, 5), st);
  CHECK_OK(chime_request_set_end(workdays, 0, 10), st);
  chime_notification *added = NULL;
  CHECK_OK(chime_add(c, workdays, &added, st), st);
  const Chime__V1__PendingRequest *stored = added != NULL ? chime_notification_pending_message(added) : NULL;
  CHECK(stored != NULL && stored->request->trigger->calendar->components->n_weekdays == 5);
  CHECK(stored != NULL && stored->request->trigger->calendar->end != NULL && stored->request->trigger->calendar->end->count == 10);
  chime_notification_free(added);
  chime_request_free(workdays);

  chime_request *report = chime_request_new("last-friday");
  CHECK_OK(chime_request_set_title(report, "Report"), st);
  CHECK(chime_request_add_exclusion(report, "2026-12-25T17:00") == CHIME_INVALID_ARGUMENT); /* no rule yet */
  chime_request_free(report);
  report = chime_request_new("last-friday");
  CHECK_OK(chime_request_set_title(report, "Report"), st);
  CHECK_OK(chime_request_set_recurrence(report, "FREQ=MONTHLY;BYDAY=-1FR", "2026-12-01T17:00", "Europe/Berlin"), st);
  CHECK_OK(chime_request_add_exclusion(report, "2026-12-25T17:00"), st);
  CHECK_OK(chime_request_add_exclusion(report, "2027-01-29T17:00"), st);
  CHECK(chime_request_set_end(report, 0, 3) == CHIME_INVALID_ARGUMENT); /* a rule ends by COUNT or UNTIL */
  chime_request_free(report);
  report = chime_request_new("last-friday");
  CHECK_OK(chime_request_set_title(report, "Report"), st);
  CHECK_OK(chime_request_set_recurrence(report, "FREQ=MONTHLY;BYDAY=-1FR", "2026-12-01T17:00", "Europe/Berlin"), st);
  CHECK_OK(chime_request_add_exclusion(report, "2026-12-25T17:00"), st);
  CHECK_OK(chime_add(c, report, &added, st), st);
  CHECK(added != NULL && chime_notification_trigger_kind(added) == CHIME_TRIGGER_RECURRENCE);
  stored = added != NULL ? chime_notification_pending_message(added) : NULL;
  CHECK(stored != NULL && stored->request->trigger->recurrence->n_exclusions == 1);
  if (stored != NULL) {
    CHECK_STR(stored->request->trigger->recurrence->rule, "FREQ=MONTHLY;BYDAY=-1FR");
    CHECK_STR(stored->request->trigger->recurrence->exclusions[0], "2026-12-25T17:00");
  }
  chime_notification_free(added);
  chime_request_free(report);

  chime_request *bad = chime_request_new("bad-rule");
  CHECK_OK(chime_request_set_title(bad, "x"), st);
  CHECK_OK(chime_request_set_recurrence(bad, "FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO", "2026-12-01T17:00", NULL), st);
  CHECK(chime_add(c, bad, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_RECURRENCE_RULE");
  chime_request_free(bad);
  chime_close(c);
}

static void test_attachments_and_sounds(void) {
  chime_client *c = connect_app("org.example.ctest.content");
  if (c == NULL) return;
  char picture[160];
  snprintf(picture, sizeof picture, "%s/cat.png", root);
  CHECK(copy_file(CHIME_TEST_FIXTURES "/media/images/png-rgb.png", picture));
  chime_request *r = chime_request_new("pic");
  CHECK_OK(chime_request_set_title(r, "Cat"), st);
  CHECK_OK(chime_request_set_body(r, "A picture"), st);
  CHECK_OK(chime_request_set_subtitle(r, "Pets"), st);
  CHECK_OK(chime_request_add_attachment(r, "cat", picture, NULL), st);
  CHECK_OK(chime_request_set_attachment_thumbnail_hidden(r, 0, true), st);
  CHECK_OK(chime_request_set_attachment_clip(r, 0, 0, 0, 0.5, 0.5), st);
  CHECK_OK(chime_request_set_sound(r, CHIME_SOUND_NAMED, "missing.wav"), st);
  CHECK_OK(chime_request_set_badge(r, 4), st);
  CHECK_OK(chime_request_set_user_info_json(r, "{\"id\":7}"), st);
  CHECK_OK(chime_request_set_thread(r, "pets"), st);
  CHECK_OK(chime_request_set_interval(r, 3600, false), st);
  chime_notification *added = NULL;
  CHECK_OK(chime_add(c, r, &added, st), st);
  CHECK(chime_notification_state(added) == CHIME_STATE_PENDING && !chime_notification_replaced(added));
  CHECK(chime_notification_attachment_count(added) == 1);
  if (chime_notification_attachment_count(added) == 1) {
    CHECK_STR(chime_notification_attachment_identifier(added, 0), "cat");
    CHECK_STR(chime_notification_attachment_type(added, 0), "public.png");
    CHECK(chime_notification_attachment_thumbnail_hidden(added, 0));
    CHECK(strcmp(chime_notification_attachment_path(added, 0), picture) != 0); /* in the store now */
  }
  CHECK(chime_notification_has_badge(added) && chime_notification_badge(added) == 4);
  CHECK_STR(chime_notification_subtitle(added), "Pets");
  CHECK_STR(chime_notification_thread(added), "pets");
  CHECK_STR(chime_notification_sound_plays(added), "default");
  CHECK_STR(chime_notification_sound_reason(added), "SOUND_NOT_FOUND");
  /* The raw message behind it, through the opt-in header. */
  const Chime__V1__PendingRequest *raw = chime_notification_pending_message(added);
  CHECK(raw != NULL && raw->request->content->attachments[0]->options->clip_set_case ==
                           CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT);
  chime_notification_free(added);
  CHECK(access(picture, F_OK) != 0); /* moved into the store */

  chime_request_free(r);
  r = chime_request_new("pic2");
  CHECK_OK(chime_request_set_title(r, "Cat"), st);
  CHECK_OK(chime_request_add_attachment(r, "cat", "/nonexistent/cat.png", NULL), st);
  CHECK(chime_add(c, r, &added, st) == CHIME_INVALID_ARGUMENT);
  CHECK(added == NULL && strstr(chime_error_field(st), "attachments[0]") != NULL);
  chime_request_free(r);
  /* No trigger: delivered at once. */
  chime_request *plain = chime_request_new("now");
  CHECK_OK(chime_request_set_title(plain, "Now"), st);
  CHECK_OK(chime_add(c, plain, &added, st), st);
  CHECK(chime_notification_state(added) == CHIME_STATE_DELIVERED);
  CHECK(chime_notification_delivered_unix_ms(added) > 0 && !chime_notification_missed(added));
  chime_notification_free(added);
  CHECK_OK(chime_add(c, plain, NULL, st), st); /* out may be NULL */
  chime_request_free(plain);
  chime_close(c);
}

static void test_delivered_calls(void) {
  chime_client *c = connect_app("org.example.ctest.delivered2");
  if (c == NULL) return;
  CHECK_OK(chime_add_now(c, "a", "A", NULL, NULL, st), st);
  CHECK_OK(chime_add_now(c, "b", "B", NULL, NULL, st), st);
  CHECK_OK(chime_add_now(c, "c", "C", NULL, NULL, st), st);
  chime_notification_list *page = NULL;
  CHECK_OK(chime_delivered_page(c, 2, NULL, &page, st), st);
  CHECK(chime_notification_list_count(page) == 2 && chime_notification_list_next_page_token(page)[0] != '\0');
  if (chime_notification_list_next_page_token(page)[0] != '\0') {
    chime_notification_list *rest = NULL;
    CHECK_OK(chime_delivered_page(c, 2, chime_notification_list_next_page_token(page), &rest, st), st);
    CHECK(chime_notification_list_count(rest) == 1 && chime_notification_list_next_page_token(rest)[0] == '\0');
    chime_notification_list_free(rest);
  }
  chime_notification_list_free(page);
  chime_notification_list *all = NULL;
  CHECK_OK(chime_delivered(c, &all, st), st);
  CHECK(chime_notification_list_count(all) == 3 && chime_notification_list_next_page_token(all)[0] == '\0');
  CHECK(chime_notification_state(chime_notification_list_at(all, 0)) == CHIME_STATE_DELIVERED);
  CHECK(chime_notification_list_at(all, 3) == NULL);
  chime_notification_list_free(all);
  const char *ids[] = {"a", "zzz"};
  chime_id_list *removed = NULL;
  CHECK_OK(chime_remove_delivered(c, ids, 2, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 1 && strcmp(chime_id_list_at(removed, 0), "a") == 0);
  chime_id_list_free(removed);
  CHECK_OK(chime_remove_all_delivered(c, &removed, st), st);
  CHECK(chime_id_list_count(removed) == 2);
  chime_id_list_free(removed);
  chime_notification_list *pending = NULL;
  CHECK_OK(chime_add_interval(c, "later", "Later", NULL, 600, false, NULL, st), st);
  CHECK_OK(chime_pending_page(c, 0, NULL, &pending, st), st);
  CHECK(chime_notification_list_count(pending) == 1);
  chime_notification_list_free(pending);
  chime_close(c);
}

/* What a subscription saw. */
typedef struct seen_events {
  size_t count;
  int kinds[64];
  uint64_t cursors[64];
  char first_ids[64][32];
  char titles[64][32]; /* of the event's notification, "-" when it has none */
  int stop_on_kind;       /* the callback returns 1 on this kind */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  bool live;              /* SUBSCRIBED seen */
} seen_events;

static int on_event(const chime_event *event, void *context) {
  seen_events *seen = context;
  pthread_mutex_lock(&seen->lock);
  if (seen->count < 64) {
    seen->kinds[seen->count] = chime_event_kind(event);
    seen->cursors[seen->count] = chime_event_cursor(event);
    snprintf(seen->first_ids[seen->count], sizeof seen->first_ids[0], "%s", chime_event_identifier_at(event, 0));
    const chime_notification *about = chime_event_notification(event);
    snprintf(seen->titles[seen->count], sizeof seen->titles[0], "%s",
             about != NULL ? chime_notification_title(about) : "-");
    seen->count++;
  }
  if (chime_event_kind(event) == CHIME_EVENT_SUBSCRIBED) {
    seen->live = true;
  }
  pthread_cond_broadcast(&seen->changed);
  pthread_mutex_unlock(&seen->lock);
  return chime_event_kind(event) == seen->stop_on_kind ? 1 : 0;
}

static void seen_init(seen_events *seen, int stop_on_kind) {
  memset(seen, 0, sizeof *seen);
  seen->stop_on_kind = stop_on_kind;
  pthread_mutex_init(&seen->lock, NULL);
  pthread_cond_init(&seen->changed, NULL);
}

static void seen_destroy(seen_events *seen) {
  pthread_mutex_destroy(&seen->lock);
  pthread_cond_destroy(&seen->changed);
}

typedef struct subscriber {
  chime_client *client;
  const uint64_t *after;
  seen_events *seen;
  int code;
  char reason[96];
} subscriber;

static void *subscribe_thread(void *arg) {
  subscriber *s = arg;
  chime_error *error = chime_error_new();
  s->code = chime_subscribe(s->client, s->after, on_event, s->seen, error);
  snprintf(s->reason, sizeof s->reason, "%s", chime_error_reason(error));
  chime_error_free(error);
  return NULL;
}

/* Waits (bounded, 10 s) until `flag` is true under seen->lock. */
static bool wait_for(seen_events *seen, const bool *flag) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock(&seen->lock);
  int rc = 0;
  while (!*flag && rc == 0) {
    rc = pthread_cond_timedwait(&seen->changed, &seen->lock, &until);
  }
  bool done = *flag;
  pthread_mutex_unlock(&seen->lock);
  return done;
}

static void test_subscribe_live_resume_stop(void) {
  chime_client *c = connect_app("org.example.ctest.events");
  if (c == NULL) return;
  /* Live: a fresh subscription starts with SUBSCRIBED; an add then arrives as an event. */
  seen_events seen;
  seen_init(&seen, CHIME_EVENT_PENDING_ADDED);
  subscriber s = {.client = c, .after = NULL, .seen = &seen, .code = -1};
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, subscribe_thread, &s) == 0);
  CHECK(wait_for(&seen, &seen.live));
  CHECK_OK(chime_add_interval(c, "one", "One", NULL, 600, false, NULL, st), st);
  pthread_join(thread, NULL);
  CHECK(s.code == CHIME_OK);
  CHECK(seen.count == 2 && seen.kinds[0] == CHIME_EVENT_SUBSCRIBED);
  CHECK(seen.kinds[1] == CHIME_EVENT_PENDING_ADDED);
  CHECK_STR(seen.first_ids[1], "one");
  CHECK_STR(seen.titles[0], "-");
  CHECK_STR(seen.titles[1], "One"); /* the pending request the event is about */
  uint64_t cursor = seen.cursors[1];
  seen_destroy(&seen);

  /* Resume: after the cursor of "one", the stored "two" and "three" come first, then SUBSCRIBED. */
  CHECK_OK(chime_add_interval(c, "two", "Two", NULL, 600, false, NULL, st), st);
  CHECK_OK(chime_remove(c, (const char *const[]){"two"}, 1, NULL, st), st);
  seen_init(&seen, CHIME_EVENT_SUBSCRIBED);
  CHECK_OK(chime_subscribe(c, &cursor, on_event, &seen, st), st);
  CHECK(seen.count == 3);
  if (seen.count == 3) {
    CHECK(seen.kinds[0] == CHIME_EVENT_PENDING_ADDED);
    CHECK_STR(seen.first_ids[0], "two");
    CHECK(seen.kinds[1] == CHIME_EVENT_PENDING_REMOVED);
    CHECK(seen.cursors[0] > cursor && seen.cursors[1] > seen.cursors[0]);
    CHECK(seen.kinds[2] == CHIME_EVENT_SUBSCRIBED);
  }
  seen_destroy(&seen);

  /* Stop from another thread while the stream waits. */
  seen_init(&seen, -1);
  subscriber waiting = {.client = c, .after = NULL, .seen = &seen, .code = -1};
  CHECK(pthread_create(&thread, NULL, subscribe_thread, &waiting) == 0);
  CHECK(wait_for(&seen, &seen.live));
  chime_subscribe_stop(c);
  pthread_join(thread, NULL);
  CHECK(waiting.code == CHIME_CANCELLED);
  CHECK_STR(waiting.reason, "CANCELLED");
  seen_destroy(&seen);
  /* The client still serves unary calls. */
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 1);
  chime_notification_list_free(list);
  chime_close(c);
}

/* A service extension rewrites a pushed notification. */
typedef struct service_state {
  chime_client *answerer;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  bool registered;
  int answer_code;
  chime_error *answer_error;
  int code;
  chime_error *error;
  char service_title[32]; /* the title of the request the service was given */
  chime_client *stream_client;
} service_state;

static int on_service_event(const chime_extension_event *event, void *context) {
  service_state *state = context;
  if (chime_extension_event_registered(event)) {
    pthread_mutex_lock(&state->lock);
    state->registered = true;
    pthread_cond_broadcast(&state->changed);
    pthread_mutex_unlock(&state->lock);
    return 0;
  }
  const chime_notification *given = chime_extension_event_service_request(event);
  if (given != NULL) {
    snprintf(state->service_title, sizeof state->service_title, "%s", chime_notification_title(given));
    chime_request *content = chime_request_new(chime_notification_identifier(given));
    chime_request_set_title(content, "Rewritten");
    chime_request_set_body(content, chime_notification_body(given));
    state->answer_code = chime_answer_service(state->answerer, "svc", chime_extension_event_service_id(event), content,
                                              NULL, state->answer_error);
    chime_request_free(content);
    return 1;
  }
  return 0;
}

static void *service_thread(void *arg) {
  service_state *state = arg;
  state->code = chime_register_service_extension(state->stream_client, "svc", on_service_event, state, state->error);
  pthread_mutex_lock(&state->lock);
  state->registered = true; /* also wakes the waiter when registration failed */
  pthread_cond_broadcast(&state->changed);
  pthread_mutex_unlock(&state->lock);
  return NULL;
}

static void test_push_and_service_extension(void) {
  chime_client *app = connect_app("org.example.ctest.push");
  chime_client *ext = connect_app("org.example.ctest.push");
  if (app == NULL || ext == NULL) {
    chime_close(app);
    chime_close(ext);
    return;
  }
  chime_notification *pushed = NULL;
  CHECK_OK(chime_push(app, "{\"aps\":{\"alert\":{\"title\":\"Score\",\"body\":\"1-0\"}}}", "score", &pushed, st), st);
  CHECK(chime_notification_state(pushed) == CHIME_STATE_DELIVERED && !chime_notification_replaced(pushed));
  CHECK_STR(chime_notification_identifier(pushed), "score");
  CHECK_STR(chime_notification_title(pushed), "Score");
  CHECK_STR(chime_notification_push_content(pushed), "original");
  chime_notification_free(pushed);
  CHECK(chime_push(app, "nope", NULL, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_PUSH_PAYLOAD");

  service_state state = {.answerer = ext, .stream_client = ext, .code = -1, .answer_code = -1,
                         .answer_error = chime_error_new(), .error = chime_error_new()};
  pthread_mutex_init(&state.lock, NULL);
  pthread_cond_init(&state.changed, NULL);
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, service_thread, &state) == 0);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock(&state.lock);
  while (!state.registered && pthread_cond_timedwait(&state.changed, &state.lock, &until) == 0) {
  }
  bool registered = state.registered;
  pthread_mutex_unlock(&state.lock);
  CHECK(registered);
  chime_set_timeout_ms(app, 20000);
  CHECK_OK(chime_push(app, "{\"aps\":{\"alert\":{\"title\":\"New\",\"body\":\"pic\"},\"mutable-content\":1}}", "m",
                      &pushed, st), st);
  pthread_join(thread, NULL);
  CHECK(state.code == CHIME_OK);
  CHECK(state.answer_code == CHIME_OK);
  CHECK_STR(state.service_title, "New");
  CHECK_STR(chime_notification_title(pushed), "Rewritten");
  CHECK_STR(chime_notification_body(pushed), "pic");
  CHECK_STR(chime_notification_push_content(pushed), "extension");
  CHECK_STR(chime_notification_push_extension(pushed), "svc");
  chime_notification_free(pushed);
  CHECK(chime_answer_service(ext, "svc", 999, NULL, "late", st) != CHIME_OK);
  CHECK(chime_error_reason(st)[0] != '\0' && chime_error_code(st) != CHIME_UNIMPLEMENTED);
  pthread_mutex_destroy(&state.lock);
  pthread_cond_destroy(&state.changed);
  chime_error_free(state.answer_error);
  chime_error_free(state.error);
  chime_close(app);
  chime_close(ext);
}

/* A content extension's side of the tests: what it saw, answered on its own client. */
typedef struct extension_state {
  chime_client *stream_client, *answerer;
  bool raw_with_media_button; /* register through chime_register_extension_message */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  bool registered, delivered, responded, pressed, ended;
  char delivered_id[32], response_for[32], response_action[32], response_text[32], pressed_id[32];
  int pressed_command;
  uint64_t response_id;
  int answer_code;
  int code;
  char reason[96];
} extension_state;

static int on_content_event(const chime_extension_event *event, void *context) {
  extension_state *s = context;
  uint64_t answer_to = 0;
  pthread_mutex_lock(&s->lock);
  if (chime_extension_event_registered(event)) {
    s->registered = true;
  } else if (chime_extension_event_response_id(event) != 0) {
    answer_to = s->response_id = chime_extension_event_response_id(event);
    snprintf(s->response_for, sizeof s->response_for, "%s", chime_extension_event_response_identifier(event));
    snprintf(s->response_action, sizeof s->response_action, "%s", chime_extension_event_response_action(event));
    snprintf(s->response_text, sizeof s->response_text, "%s", chime_extension_event_response_text(event));
  } else if (chime_extension_event_media_identifier(event)[0] != '\0') {
    snprintf(s->pressed_id, sizeof s->pressed_id, "%s", chime_extension_event_media_identifier(event));
    s->pressed_command = chime_extension_event_media_command(event);
    s->pressed = true;
  } else if (chime_extension_event_notification(event) != NULL) {
    snprintf(s->delivered_id, sizeof s->delivered_id, "%s",
             chime_notification_identifier(chime_extension_event_notification(event)));
    s->delivered = true;
  }
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
  if (answer_to != 0) {
    chime_error *error = chime_error_new();
    int code = chime_answer_response(s->answerer, "invite-ui", answer_to, CHIME_RESPONSE_DO_NOT_DISMISS, error);
    pthread_mutex_lock(&s->lock);
    s->answer_code = code;
    s->responded = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    chime_error_free(error);
  }
  return 0;
}

static void *content_extension_thread(void *arg) {
  extension_state *s = arg;
  chime_error *error = chime_error_new();
  if (s->raw_with_media_button) {
    Chime__V1__MediaButtonFrame frame = CHIME__V1__MEDIA_BUTTON_FRAME__INIT;
    frame.width = frame.height = 44;
    Chime__V1__MediaPlayPauseButton button = CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON__INIT;
    button.type = CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_DEFAULT;
    button.frame = &frame;
    Chime__V1__ExtensionAttributes attributes = CHIME__V1__EXTENSION_ATTRIBUTES__INIT;
    attributes.ratio_case = CHIME__V1__EXTENSION_ATTRIBUTES__RATIO_INITIAL_CONTENT_SIZE_RATIO;
    attributes.initial_content_size_ratio = 0.5;
    attributes.media_button = &button;
    char *categories[] = {"music"};
    Chime__V1__RegisterExtensionRequest request = CHIME__V1__REGISTER_EXTENSION_REQUEST__INIT;
    request.extension_identifier = "player";
    request.n_category_identifiers = 1;
    request.category_identifiers = categories;
    request.attributes = &attributes;
    s->code = chime_register_extension_message(s->stream_client, &request, on_content_event, s, error);
  } else {
    const char *categories[] = {"event-invite"};
    s->code = chime_register_content_extension(s->stream_client, "invite-ui", categories, 1, 0.5, 0,
                                               on_content_event, s, error);
  }
  pthread_mutex_lock(&s->lock);
  snprintf(s->reason, sizeof s->reason, "%s", chime_error_reason(error));
  s->ended = s->registered = true; /* also wakes a waiter when registration failed */
  pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&s->lock);
  chime_error_free(error);
  return NULL;
}

/* Waits (bounded, 10 s) until `flag` is true under s->lock. */
static bool extension_wait(extension_state *s, const bool *flag) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock(&s->lock);
  int rc = 0;
  while (!*flag && rc == 0) {
    rc = pthread_cond_timedwait(&s->changed, &s->lock, &until);
  }
  bool done = *flag;
  pthread_mutex_unlock(&s->lock);
  return done;
}

/* A content extension sees its category's deliveries and answers their responses; another,
 * registered with a media button through the raw header, gets the presses. */
static void test_content_extension_and_media(void) {
  chime_client *app = connect_app("org.example.ctest.extension");
  chime_client *stream = connect_app("org.example.ctest.extension");
  chime_client *answerer = connect_app("org.example.ctest.extension");
  if (app == NULL || stream == NULL || answerer == NULL) {
    chime_close(app);
    chime_close(stream);
    chime_close(answerer);
    return;
  }
  chime_category *invite = make_invite();
  CHECK_OK(chime_set_categories(app, (const chime_category *const[]){invite}, 1, st), st);
  chime_category_free(invite);
  extension_state s = {.stream_client = stream, .answerer = answerer, .code = -1, .answer_code = -1};
  pthread_mutex_init(&s.lock, NULL);
  pthread_cond_init(&s.changed, NULL);
  pthread_t thread;
  CHECK(pthread_create(&thread, NULL, content_extension_thread, &s) == 0);
  CHECK(extension_wait(&s, &s.registered) && !s.ended);
  CHECK_OK(chime_add_now(app, "lunch", "Lunch", NULL, "event-invite", st), st);
  CHECK(extension_wait(&s, &s.delivered));
  CHECK_STR(s.delivered_id, "lunch");
  bool removed = true;
  CHECK_OK(chime_respond(app, "lunch", "comment", "Late", &removed, st), st); /* waits for the answer */
  CHECK(extension_wait(&s, &s.responded));
  CHECK(s.answer_code == CHIME_OK && s.response_id != 0);
  CHECK_STR(s.response_for, "lunch");
  CHECK_STR(s.response_action, "comment");
  CHECK_STR(s.response_text, "Late");
  CHECK(!removed); /* DO_NOT_DISMISS */
  chime_subscribe_stop(stream);
  pthread_join(thread, NULL);
  CHECK(s.code == CHIME_CANCELLED);
  CHECK_STR(s.reason, "CANCELLED");
  pthread_mutex_destroy(&s.lock);
  pthread_cond_destroy(&s.changed);

  extension_state m = {.stream_client = stream, .answerer = answerer, .raw_with_media_button = true, .code = -1};
  pthread_mutex_init(&m.lock, NULL);
  pthread_cond_init(&m.changed, NULL);
  CHECK(pthread_create(&thread, NULL, content_extension_thread, &m) == 0);
  CHECK(extension_wait(&m, &m.registered) && !m.ended);
  CHECK_OK(chime_add_now(app, "song", "Song", NULL, "music", st), st);
  CHECK(extension_wait(&m, &m.delivered));
  char *who = NULL;
  CHECK_OK(chime_press_media_button(app, "song", CHIME_MEDIA_PLAY, &who, st), st);
  CHECK_STR(who, "player");
  free(who);
  CHECK(extension_wait(&m, &m.pressed));
  CHECK_STR(m.pressed_id, "song");
  CHECK(m.pressed_command == CHIME_MEDIA_PLAY);
  CHECK_OK(chime_report_media_playback(answerer, "player", "song", CHIME_PLAYBACK_PLAYING, st), st);
  chime_notification_list *delivered = NULL;
  CHECK_OK(chime_delivered(app, &delivered, st), st);
  const chime_notification *song = NULL;
  for (size_t i = 0; i < chime_notification_list_count(delivered); i++) {
    if (strcmp(chime_notification_identifier(chime_notification_list_at(delivered, i)), "song") == 0) {
      song = chime_notification_list_at(delivered, i);
    }
  }
  const Chime__V1__DeliveredNotification *raw = chime_notification_delivered_message(song);
  CHECK(raw != NULL && raw->media_playback == CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_PLAYING);
  chime_notification_list_free(delivered);
  chime_subscribe_stop(stream);
  pthread_join(thread, NULL);
  CHECK(m.code == CHIME_CANCELLED);
  pthread_mutex_destroy(&m.lock);
  pthread_cond_destroy(&m.changed);
  chime_close(app);
  chime_close(stream);
  chime_close(answerer);
}

static void test_media_and_extension_answers(void) {
  chime_client *c = connect_app("org.example.ctest.media");
  if (c == NULL) return;
  char *who = NULL;
  CHECK(chime_press_media_button(c, "nothing", CHIME_MEDIA_PLAY, &who, st) ==
        CHIME_NOT_FOUND);
  CHECK_STR(chime_error_reason(st), "NOTIFICATION_NOT_DELIVERED");
  CHECK(who == NULL);
  CHECK(chime_press_media_button(c, "nothing", 0, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_MEDIA_COMMAND");
  CHECK(chime_report_media_playback(c, "player", "nothing", CHIME_PLAYBACK_PLAYING, st) !=
        CHIME_OK);
  CHECK(chime_error_reason(st)[0] != '\0' && chime_error_code(st) != CHIME_UNIMPLEMENTED);
  CHECK(chime_answer_response(c, "ui", 42, CHIME_RESPONSE_DISMISS,
                              st) != CHIME_OK);
  CHECK(chime_error_reason(st)[0] != '\0' && chime_error_code(st) != CHIME_UNIMPLEMENTED);
  chime_close(c);
}

static void test_authorization_settings_badge(void) {
  chime_client *c = connect_app("org.example.ctest.auth");
  chime_client *user = connect_app("chime.cli");
  if (c == NULL || user == NULL) {
    chime_close(c);
    chime_close(user);
    return;
  }
  bool granted = false;
  chime_settings *settings = NULL;
  CHECK_OK(chime_request_authorization(c, CHIME_AUTH_ALERT | CHIME_AUTH_SOUND | CHIME_AUTH_BADGE, &granted, &settings,
                                       st), st);
  CHECK(granted && chime_settings_enabled(settings, CHIME_AUTH_ALERT));
  CHECK(!chime_settings_enabled(settings, CHIME_AUTH_CRITICAL_ALERT));
  chime_settings_free(settings);
  CHECK_OK(chime_set_badge_count(c, 3, st), st);
  CHECK_OK(chime_get_settings(c, &settings, st), st);
  CHECK(chime_settings_badge_count(settings) == 3 &&
        chime_settings_authorization_status(settings) == CHIME_AUTHORIZATION_AUTHORIZED);
  chime_settings_free(settings);
  CHECK(chime_set_badge_count(c, -1, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "BADGE_INPUT_INVALID");

  CHECK_OK(chime_set_app_settings(user, "org.example.ctest.auth", CHIME_AUTHORIZATION_DENIED, 0, 0, &settings, st), st);
  CHECK(chime_settings_authorization_status(settings) == CHIME_AUTHORIZATION_DENIED);
  chime_settings_free(settings);
  CHECK(chime_add_interval(c, "x", "X", NULL, 60, false, NULL, st) == CHIME_PERMISSION_DENIED);
  CHECK_STR(chime_error_reason(st), "NOTIFICATIONS_NOT_ALLOWED");
  CHECK_OK(chime_set_app_settings(user, "org.example.ctest.auth", CHIME_AUTHORIZATION_AUTHORIZED, 0, 0, NULL, st), st);
  CHECK_OK(chime_add_interval(c, "x", "X", NULL, 60, false, NULL, st), st);
  /* A switch alone: sound off, the rest as they were. */
  CHECK_OK(chime_set_app_settings(user, "org.example.ctest.auth", CHIME_UNCHANGED, CHIME_AUTH_SOUND, 0, &settings, st),
           st);
  CHECK(!chime_settings_enabled(settings, CHIME_AUTH_SOUND) && chime_settings_enabled(settings, CHIME_AUTH_ALERT));
  CHECK(chime_settings_authorization_status(settings) == CHIME_AUTHORIZATION_AUTHORIZED);
  chime_settings_free(settings);
  chime_close(c);
  chime_close(user);
}

static void test_do_not_disturb(void) {
  chime_client *user = connect_app("chime.cli");
  if (user == NULL) {
    return;
  }
  chime_dnd *dnd = NULL;
  CHECK_OK(chime_get_do_not_disturb(user, &dnd, st), st);
  /* Off, following the desktop (the test daemon follows none: nothing named), with a summary. */
  CHECK(!chime_dnd_active(dnd) && chime_dnd_source(dnd) == CHIME_DND_OFF);
  CHECK(chime_dnd_follows_desktop(dnd) && chime_dnd_summary(dnd));
  CHECK_STR(chime_dnd_desktop(dnd), "");
  CHECK(!chime_dnd_schedule(dnd, NULL, NULL, NULL));
  chime_dnd_free(dnd);

  CHECK_OK(chime_set_do_not_disturb(user, 1, 0, CHIME_UNCHANGED, 0, &dnd, st), st);
  CHECK(chime_dnd_active(dnd) && chime_dnd_source(dnd) == CHIME_DND_MANUAL && chime_dnd_manual_on(dnd));
  CHECK(chime_dnd_until_unix_ms(dnd) == 0 && chime_dnd_follows_desktop(dnd) && !chime_dnd_summary(dnd));
  CHECK(chime_dnd_message(dnd) != NULL && chime_dnd_message(dnd)->source == CHIME__V1__DO_NOT_DISTURB_SOURCE__DO_NOT_DISTURB_SOURCE_MANUAL);
  chime_dnd_free(dnd);

  CHECK_OK(chime_set_do_not_disturb_schedule(user, 22 * 60, 7 * 60, 0x1Fu, &dnd, st), st);
  unsigned start = 0, end = 0, days = 0;
  CHECK(chime_dnd_schedule(dnd, &start, &end, &days) && start == 22 * 60 && end == 7 * 60 && days == 0x1Fu);
  CHECK(chime_dnd_time_zone(dnd)[0] != '\0');
  chime_dnd_free(dnd);
  CHECK(chime_set_do_not_disturb_schedule(user, 600, 600, CHIME_DND_EVERY_DAY, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_DND_SCHEDULE");
  CHECK(chime_set_do_not_disturb(user, 1, 1000, CHIME_UNCHANGED, CHIME_UNCHANGED, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "DND_UNTIL_IN_PAST");
  CHECK(chime_set_do_not_disturb(user, 2, 0, CHIME_UNCHANGED, CHIME_UNCHANGED, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_ARGUMENT");

  /* Off by hand, schedule cleared, following off: off, and the parts left alone stay. */
  CHECK_OK(chime_set_do_not_disturb(user, 0, 0, 0, CHIME_UNCHANGED, NULL, st), st);
  CHECK_OK(chime_clear_do_not_disturb_schedule(user, &dnd, st), st);
  CHECK(!chime_dnd_active(dnd) && !chime_dnd_manual_on(dnd) && !chime_dnd_schedule(dnd, NULL, NULL, NULL));
  CHECK(!chime_dnd_follows_desktop(dnd) && !chime_dnd_summary(dnd));
  chime_dnd_free(dnd);
  CHECK_OK(chime_set_do_not_disturb(user, CHIME_UNCHANGED, 0, 1, 1, NULL, st), st);
  /* NULL is safe everywhere. */
  CHECK(!chime_dnd_active(NULL) && chime_dnd_source(NULL) == CHIME_DND_OFF && chime_dnd_desktop(NULL)[0] == '\0');
  chime_dnd_free(NULL);
  chime_close(user);
}

static void test_apps_and_sounds(void) {
  chime_client *c = connect_app("org.example.ctest.apps");
  if (c == NULL) return;
  char container[160], group[160], sounds[200];
  snprintf(container, sizeof container, "%s/container", root);
  snprintf(group, sizeof group, "%s/group", root);
  CHECK(mkdir(container, 0700) == 0 && mkdir(group, 0700) == 0);
  snprintf(sounds, sizeof sounds, "%s/Library", container);
  CHECK(mkdir(sounds, 0700) == 0);
  snprintf(sounds, sizeof sounds, "%s/Library/Sounds", container);
  CHECK(mkdir(sounds, 0700) == 0);

  chime_app *layout = NULL;
  CHECK_OK(chime_get_app(c, &layout, st), st);
  CHECK(layout != NULL && !chime_app_registered(layout));
  chime_app_free(layout);
  const char *groups[] = {group};
  CHECK_OK(chime_register_app(c, container, groups, 1, NULL, "C Test", NULL, &layout, st), st);
  CHECK(chime_app_registered(layout) && chime_app_group_container_count(layout) == 1);
  CHECK_STR(chime_app_container(layout), container);
  CHECK_STR(chime_app_group_container_at(layout, 0), group);
  CHECK_STR(chime_app_display_name(layout), "C Test");
  CHECK_STR(chime_app_id(layout), "org.example.ctest.apps");
  chime_app_free(layout);
  CHECK_OK(chime_get_app(c, &layout, st), st);
  CHECK(chime_app_registered(layout));
  chime_app_free(layout);
  chime_app_list *apps = NULL;
  CHECK_OK(chime_list_apps(c, &apps, st), st);
  bool listed = false;
  for (size_t i = 0; i < chime_app_list_count(apps); i++) {
    listed = listed || strcmp(chime_app_id(chime_app_list_at(apps, i)), "org.example.ctest.apps") == 0;
  }
  CHECK(listed);
  chime_app_list_free(apps);

  chime_server_info *server = NULL;
  CHECK_OK(chime_get_server_info(c, &server, st), st);
  CHECK(chime_server_info_pid(server) > 0 && strncmp(chime_server_info_version(server), "0.", 2) == 0 &&
        chime_server_info_started_at_ms(server) > 0);
  CHECK_STR(chime_server_info_socket_path(server), socket_path);
  chime_server_info_free(server);

  chime_sound_check *check = NULL;
  CHECK_OK(chime_check_sound(c, "ding.wav", &check, st), st);
  CHECK(chime_sound_check_searched_count(check) >= 2 && chime_sound_check_plays(check)[0] != '\0');
  if (chime_sound_check_searched_count(check) >= 1) {
    char expected[240];
    snprintf(expected, sizeof expected, "%s/ding.wav", sounds);
    CHECK_STR(chime_sound_check_searched_path(check, 0), expected);
    CHECK(!chime_sound_check_searched_exists(check, 0));
  }
  chime_sound_check_free(check);
  char missing[200];
  snprintf(missing, sizeof missing, "%s/nope", root);
  CHECK(chime_register_app(c, missing, NULL, 0, NULL, NULL, NULL, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "INVALID_APP_DIRECTORY");
  CHECK_STR(chime_error_field(st), "container");
  chime_close(c);
}

static void test_oversized_call(void) {
  chime_client *c = connect_app("org.example.ctest.big");
  if (c == NULL) return;
  size_t size = 2u << 20;
  char *huge = malloc(size + 1);
  CHECK(huge != NULL);
  if (huge == NULL) { chime_close(c); return; }
  memset(huge, 'x', size);
  huge[size] = '\0';
  CHECK(chime_add_interval(c, "big", huge, NULL, 60, false, NULL, st) == CHIME_RESOURCE_EXHAUSTED);
  CHECK_STR(chime_error_reason(st), "FRAME_TOO_LARGE");
  free(huge);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st); /* refused locally: the connection is fine */
  chime_notification_list_free(list);
  chime_close(c);
}

static void test_connect_errors(void) {
  chime_client *c = (chime_client *)&root; /* must be reset to NULL */
  char missing[160];
  snprintf(missing, sizeof missing, "%s/nobody.sock", root);
  CHECK(chime_connect(&c, missing, "org.example.ctest", st) == CHIME_UNAVAILABLE);
  CHECK(c == NULL);
  CHECK_STR(chime_error_reason(st), "DAEMON_UNAVAILABLE");
  CHECK(strstr(chime_error_message(st), "nobody.sock") != NULL);

  char long_path[300];
  memset(long_path, 'a', sizeof long_path - 1);
  long_path[0] = '/';
  long_path[sizeof long_path - 1] = '\0';
  CHECK(chime_connect(&c, long_path, "org.example.ctest", st) == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_error_reason(st), "SOCKET_PATH_TOO_LONG");
  CHECK(chime_connect(&c, socket_path, NULL, st) == CHIME_INVALID_ARGUMENT);
  CHECK(chime_connect(&c, missing, "org.example.ctest", NULL) == CHIME_UNAVAILABLE); /* NULL status is fine */
}

/* A listener that accepts but never answers: calls time out and the client stays usable. */
static void test_timeout(void) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  char *path = address.sun_path; /* root is short: well inside sun_path */
  snprintf(path, sizeof address.sun_path, "%.64s/silent.sock", root);
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
  CHECK(listen(listener, 4) == 0);

  chime_client *c = NULL;
  CHECK_OK(chime_connect(&c, path, "org.example.ctest.silent", st), st);
  if (c != NULL) {
    chime_set_timeout_ms(c, 150);
    int64_t start = monotonic_ms();
    chime_notification_list *list = NULL;
    CHECK(chime_pending(c, &list, st) == CHIME_DEADLINE_EXCEEDED);
    CHECK_STR(chime_error_reason(st), "DEADLINE_EXCEEDED");
    int64_t took = monotonic_ms() - start;
    CHECK(took >= 140 && took < 5000);
    CHECK(chime_remove_all(c, NULL, st) == CHIME_DEADLINE_EXCEEDED); /* not broken by the timeout */
    /* The deadline travelled in the call frame: now + 150 ms. */
    int server = accept(listener, NULL, NULL);
    CHECK(server >= 0);
    uint8_t header[4];
    if (server >= 0 && recv(server, header, 4, MSG_WAITALL) == 4) {
      size_t length = (size_t)header[0] << 24 | (size_t)header[1] << 16 | (size_t)header[2] << 8 | header[3];
      uint8_t body[4096];
      CHECK(length <= sizeof body && recv(server, body, length, MSG_WAITALL) == (ssize_t)length);
      Chime__V1__Frame *frame = length <= sizeof body ? chime__v1__frame__unpack(NULL, length, body) : NULL;
      CHECK(frame != NULL && frame->kind_case == CHIME__V1__FRAME__KIND_CALL);
      if (frame != NULL && frame->call != NULL) {
        int64_t ahead = frame->call->deadline_unix_ms - now_ms();
        CHECK(ahead > -5000 && ahead <= 150);
      }
      chime_message_free(frame);
    }
    if (server >= 0) close(server);
    chime_close(c);
  }
  close(listener);
  unlink(path);
}

/* A reply that does not decode is MALFORMED_REPLY, and the connection is not used again. */
static void test_malformed_reply(void) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof address.sun_path, "%.64s/garbled.sock", root);
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
  CHECK(listen(listener, 4) == 0);
  chime_client *c = NULL;
  CHECK_OK(chime_connect(&c, address.sun_path, "org.example.ctest.garbled", st), st);
  int server = accept(listener, NULL, NULL);
  CHECK(server >= 0);
  static const uint8_t junk[] = {0, 0, 0, 3, 0xFF, 0xFF, 0xFF}; /* a frame whose body is no Frame */
  CHECK(server >= 0 && write(server, junk, sizeof junk) == (ssize_t)sizeof junk);
  if (c != NULL) {
    chime_set_timeout_ms(c, 5000);
    CHECK(chime_get_app(c, NULL, st) == CHIME_INTERNAL);
    CHECK_STR(chime_error_reason(st), "MALFORMED_REPLY");
    CHECK(chime_get_app(c, NULL, st) == CHIME_INTERNAL); /* the broken connection is not reused */
    CHECK_STR(chime_error_reason(st), "MALFORMED_REPLY");
    chime_close(c);
  }
  if (server >= 0) close(server);
  close(listener);
  unlink(address.sun_path);
}

/* ---- the client on an application's loop ---- */

/* What a loop test saw: the adds' outcomes and the events of a subscription. */
typedef struct loop_state {
  chime_client *client;
  chime_subscription *subscription;
  const char *prefix; /* identifiers of this test's requests start with it */
  int adds_ok, adds_failed;
  int added_events; /* PENDING_ADDED events for this test's requests */
  bool live, done_called, cancel_in_callback;
  int done_code;
  int threads_seen; /* the process's thread count inside the event callback */
  GMainLoop *loop;
} loop_state;

/* Threads of this process, from /proc/self/status (0 when unreadable). */
static int thread_count(void) {
  FILE *status = fopen("/proc/self/status", "r");
  if (status == NULL) {
    return 0;
  }
  char line[256];
  int threads = 0;
  while (fgets(line, sizeof line, status) != NULL) {
    if (sscanf(line, "Threads: %d", &threads) == 1) {
      break;
    }
  }
  fclose(status);
  return threads;
}

/* The replies to the adds and their events may come in either order: the loop ends when both
 * are in. */
static void loop_maybe_quit(loop_state *state) {
  if (state->loop != NULL && state->added_events == 2 && state->adds_ok + state->adds_failed == 2) {
    g_main_loop_quit(state->loop);
  }
}

static void loop_on_added(int code, const chime_error *error, const chime_notification *added, void *context) {
  loop_state *state = context;
  if (code == CHIME_OK && added != NULL && strncmp(chime_notification_identifier(added), state->prefix,
                                                   strlen(state->prefix)) == 0) {
    state->adds_ok++;
  } else {
    fprintf(stderr, "    chime_add_start: %s (%s): %s\n", chime_code_name(code), chime_error_reason(error),
            chime_error_message(error));
    state->adds_failed++;
  }
  loop_maybe_quit(state);
}

/* Adds one request of the test asynchronously: pending, an hour away. */
static void loop_add(loop_state *state, const char *suffix) {
  char identifier[64];
  snprintf(identifier, sizeof identifier, "%s%s", state->prefix, suffix);
  chime_request *request = chime_request_new(identifier);
  chime_request_set_title(request, "On the loop");
  chime_request_set_interval(request, 3600, false);
  CHECK_OK(chime_add_start(state->client, request, loop_on_added, state, st), st);
  chime_request_free(request);
}

static int loop_on_event(const chime_event *event, void *context) {
  loop_state *state = context;
  state->threads_seen = thread_count();
  if (chime_event_kind(event) == CHIME_EVENT_SUBSCRIBED) {
    /* Live: add the two requests on the same connection, without blocking. */
    state->live = true;
    loop_add(state, "one");
    loop_add(state, "two");
    return 0;
  }
  if (chime_event_kind(event) == CHIME_EVENT_PENDING_ADDED && chime_event_identifier_count(event) == 1 &&
      strncmp(chime_event_identifier_at(event, 0), state->prefix, strlen(state->prefix)) == 0) {
    state->added_events++;
  }
  if (state->added_events == 2) {
    if (state->cancel_in_callback) {
      chime_subscription_cancel(state->subscription); /* from its own callback: freed on return */
      state->subscription = NULL;
    }
    loop_maybe_quit(state);
    return state->cancel_in_callback ? 0 : 1; /* else end the stream by returning non-zero */
  }
  return 0;
}

static void loop_on_done(int code, const chime_error *error, void *context) {
  (void)error;
  loop_state *state = context;
  state->done_called = true;
  state->done_code = code;
}

/*
 * A GSource for a chime_client: in prepare it watches the client's fd for chime_get_events and
 * sets its ready time to chime_get_timeout's deadline (both CLOCK_MONOTONIC microseconds); it
 * dispatches with chime_process.
 */
typedef struct chime_gsource {
  GSource source;
  chime_client *client;
  gpointer tag;
  int result; /* the last chime_process result */
} chime_gsource;

static gboolean chime_gsource_prepare(GSource *source, gint *timeout) {
  chime_gsource *cs = (chime_gsource *)source;
  GIOCondition events = 0;
  int wanted = chime_get_events(cs->client);
  if (wanted & POLLIN) events |= G_IO_IN;
  if (wanted & POLLOUT) events |= G_IO_OUT;
  g_source_modify_unix_fd(source, cs->tag, events);
  uint64_t deadline = UINT64_MAX;
  chime_get_timeout(cs->client, &deadline);
  g_source_set_ready_time(source, deadline == UINT64_MAX ? -1 : (gint64)deadline);
  *timeout = -1; /* the ready time covers the deadline */
  return FALSE;
}

static gboolean chime_gsource_check(GSource *source) {
  chime_gsource *cs = (chime_gsource *)source;
  return g_source_query_unix_fd(source, cs->tag) != 0;
}

static gboolean chime_gsource_dispatch(GSource *source, GSourceFunc callback, gpointer data) {
  (void)callback, (void)data;
  chime_gsource *cs = (chime_gsource *)source;
  cs->result = chime_process(cs->client, st);
  return cs->result < 0 ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE; /* broken: leave the loop */
}

static GSourceFuncs chime_gsource_funcs = {
    .prepare = chime_gsource_prepare, .check = chime_gsource_check, .dispatch = chime_gsource_dispatch};

static GSource *chime_gsource_new(chime_client *client) {
  chime_gsource *cs = (chime_gsource *)g_source_new(&chime_gsource_funcs, sizeof *cs);
  cs->client = client;
  cs->tag = g_source_add_unix_fd(&cs->source, chime_get_fd(client), G_IO_IN);
  return &cs->source;
}

static gboolean loop_timed_out(gpointer data) {
  bool *timed_out = data;
  *timed_out = true;
  fprintf(stderr, "    the GLib loop did not see both events within 10 s\n");
  return G_SOURCE_REMOVE;
}

static gboolean loop_quit_on_timeout(gpointer data) {
  GMainLoop *loop = data;
  g_main_loop_quit(loop);
  return G_SOURCE_REMOVE;
}

/* A subscription driven by a GLib main loop, with no thread: the client's fd in a GSource, two
 * adds on the same connection from the event callback, both PENDING_ADDED events received,
 * the subscription cancelled from its own callback; a 10 s GLib timeout fails the test. */
static void test_glib_loop_subscription(void) {
  chime_client *c = connect_app("org.example.ctest.glib");
  if (c == NULL) return;
  int threads_before = thread_count();
  GMainContext *context = g_main_context_new();
  GMainLoop *loop = g_main_loop_new(context, FALSE);
  loop_state state = {.client = c, .prefix = "glib-", .loop = loop, .cancel_in_callback = true};
  GSource *source = chime_gsource_new(c);
  g_source_attach(source, context);
  bool timed_out = false;
  GSource *timer = g_timeout_source_new(10000);
  g_source_set_callback(timer, loop_timed_out, &timed_out, NULL);
  g_source_attach(timer, context);
  GSource *quitter = g_timeout_source_new(10000);
  g_source_set_callback(quitter, loop_quit_on_timeout, loop, NULL);
  g_source_attach(quitter, context);

  CHECK_OK(chime_subscribe_start(c, NULL, loop_on_event, loop_on_done, &state, &state.subscription, st), st);
  CHECK(chime_subscription_active(state.subscription));
  CHECK(chime_get_events(c) == (POLLIN | POLLOUT)); /* the Subscribe call is queued, not written */
  g_main_loop_run(loop);

  CHECK(!timed_out);
  CHECK(state.live);
  CHECK(state.adds_ok == 2 && state.adds_failed == 0);
  CHECK(state.added_events == 2);
  CHECK(state.subscription == NULL);  /* cancelled (and freed) in the callback */
  CHECK(!state.done_called);          /* a cancel is not an end the callback hears of */
  CHECK(state.threads_seen == threads_before); /* no thread was started for it */
  CHECK(((chime_gsource *)source)->result >= 0);
  /* The connection still serves blocking calls after the loop. */
  chime_notification_list *pending = NULL;
  CHECK_OK(chime_pending(c, &pending, st), st);
  CHECK(chime_notification_list_count(pending) == 2);
  chime_notification_list_free(pending);

  g_source_destroy(timer);
  g_source_unref(timer);
  g_source_destroy(quitter);
  g_source_unref(quitter);
  g_source_destroy(source);
  g_source_unref(source);
  g_main_loop_unref(loop);
  g_main_context_unref(context);
  chime_close(c);
}

/* Waits on the client with poll(2) for its events and its next deadline (capped at `cap_ms`),
 * then runs chime_process; returns chime_process's result. */
static int poll_turn(chime_client *c, int cap_ms) {
  uint64_t deadline = UINT64_MAX;
  CHECK(chime_get_timeout(c, &deadline) == CHIME_OK);
  int wait = cap_ms;
  if (deadline != UINT64_MAX) {
    int64_t left = ((int64_t)deadline / 1000) - monotonic_ms();
    wait = left <= 0 ? 0 : (left < cap_ms ? (int)left + 1 : cap_ms);
  }
  struct pollfd poller = {.fd = chime_get_fd(c), .events = (short)chime_get_events(c), .revents = 0};
  (void)poll(&poller, 1, wait);
  return chime_process(c, st);
}

static void on_raw_reply(int code, const chime_error *error, const uint8_t *reply, size_t reply_len, void *context) {
  (void)error, (void)reply, (void)reply_len;
  int *slot = context;
  *slot = code;
}

/* The same with a plain poll(2) loop; the stream ends by the callback's return (on_done hears
 * CHIME_OK); then deadlines (chime_get_timeout), a malformed frame and an oversized one,
 * against fake servers. */
static void test_poll_loop(void) {
  chime_client *c = connect_app("org.example.ctest.poll");
  if (c == NULL) return;
  loop_state state = {.client = c, .prefix = "poll-", .done_code = -1};
  CHECK_OK(chime_subscribe_start(c, NULL, loop_on_event, loop_on_done, &state, &state.subscription, st), st);
  int64_t give_up = monotonic_ms() + 10000;
  while ((!state.done_called || state.adds_ok + state.adds_failed < 2) && monotonic_ms() < give_up) {
    CHECK(poll_turn(c, 1000) >= 0);
  }
  CHECK(state.done_called && state.done_code == CHIME_OK);
  CHECK(state.adds_ok == 2 && state.added_events == 2);
  CHECK(!chime_subscription_active(state.subscription));
  chime_subscription_cancel(state.subscription); /* ended already: only freed */
  CHECK(chime_process(c, st) >= 0);
  chime_close(c);

  /* An asynchronous call to a server that never answers: chime_get_timeout names its deadline
   * and chime_process fails it there; a subscription ends with CANCELLED when the client closes. */
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof address.sun_path, "%.64s/loop-silent.sock", root);
  int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
  CHECK(listen(listener, 4) == 0);
  CHECK_OK(chime_connect(&c, address.sun_path, "org.example.ctest.loop", st), st);
  if (c != NULL) {
    chime_set_timeout_ms(c, 150);
    uint64_t deadline = 0;
    CHECK(chime_get_timeout(c, &deadline) == CHIME_OK && deadline == UINT64_MAX);
    int code = -1;
    int64_t start = monotonic_ms();
    CHECK_OK(chime_call_start(c, "GetPending", NULL, 0, on_raw_reply, &code, st), st);
    int64_t started = monotonic_ms();
    CHECK(chime_get_timeout(c, &deadline) == CHIME_OK && deadline != UINT64_MAX);
    /* The client's timeout from the start: between the clock read before and after it. */
    CHECK((int64_t)(deadline / 1000) >= start + 150 && (int64_t)(deadline / 1000) <= started + 150);
    loop_state ended = {.client = c, .prefix = "x", .done_code = -1};
    chime_subscription *sub = NULL;
    CHECK_OK(chime_subscribe_start(c, NULL, loop_on_event, loop_on_done, &ended, &sub, st), st);
    while (code == -1 && monotonic_ms() - start < 5000) {
      CHECK(poll_turn(c, 1000) >= 0);
    }
    CHECK(code == CHIME_DEADLINE_EXCEEDED);
    CHECK(monotonic_ms() - start >= 140);
    CHECK(chime_get_timeout(c, &deadline) == CHIME_OK && deadline == UINT64_MAX);
    CHECK(chime_subscription_active(sub));
    chime_close(c);
    CHECK(ended.done_called && ended.done_code == CHIME_CANCELLED);
    CHECK(!chime_subscription_active(sub));
    chime_subscription_cancel(sub); /* the handle outlives its client */
  }
  close(listener);
  unlink(address.sun_path);

  /* A malformed frame: the subscription ends with MALFORMED_REPLY and chime_process reports
   * the broken connection as a negative status, once and again. */
  snprintf(address.sun_path, sizeof address.sun_path, "%.64s/loop-garbled.sock", root);
  listener = socket(AF_UNIX, SOCK_STREAM, 0);
  CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
  CHECK(listen(listener, 4) == 0);
  CHECK_OK(chime_connect(&c, address.sun_path, "org.example.ctest.loop", st), st);
  int server = accept(listener, NULL, NULL);
  CHECK(server >= 0);
  if (c != NULL) {
    loop_state garbled = {.client = c, .prefix = "x", .done_code = -1};
    chime_subscription *sub = NULL;
    CHECK_OK(chime_subscribe_start(c, NULL, loop_on_event, loop_on_done, &garbled, &sub, st), st);
    static const uint8_t junk[] = {0, 0, 0, 3, 0xFF, 0xFF, 0xFF};
    CHECK(server >= 0 && write(server, junk, sizeof junk) == (ssize_t)sizeof junk);
    int result = 0;
    for (int turn = 0; turn < 50 && result >= 0; turn++) {
      result = poll_turn(c, 100);
    }
    CHECK(result == -CHIME_INTERNAL);
    CHECK_STR(chime_error_reason(st), "MALFORMED_REPLY");
    CHECK(garbled.done_called && garbled.done_code == CHIME_INTERNAL);
    CHECK(chime_get_events(c) == 0);
    CHECK(chime_process(c, st) == -CHIME_INTERNAL);
    chime_request *late = chime_request_new("late");
    CHECK(chime_add_start(c, late, loop_on_added, &garbled, st) == CHIME_INTERNAL); /* refused: broken */
    chime_request_free(late);
    CHECK(garbled.adds_failed == 0); /* a call refused at the start never calls back */
    chime_subscription_cancel(sub);
    chime_close(c);
  }
  if (server >= 0) close(server);

  /* A length over the 64 MiB bound: refused from the 4-byte header alone, nothing allocated. */
  CHECK_OK(chime_connect(&c, address.sun_path, "org.example.ctest.loop", st), st);
  server = accept(listener, NULL, NULL);
  CHECK(server >= 0);
  if (c != NULL) {
    int code = -1;
    CHECK_OK(chime_call_start(c, "GetPending", NULL, 0, on_raw_reply, &code, st), st);
    static const uint8_t huge[] = {0x7F, 0xFF, 0xFF, 0xFF};
    CHECK(server >= 0 && write(server, huge, sizeof huge) == (ssize_t)sizeof huge);
    int result = 0;
    for (int turn = 0; turn < 50 && result >= 0; turn++) {
      result = poll_turn(c, 100);
    }
    CHECK(result == -CHIME_RESOURCE_EXHAUSTED);
    CHECK_STR(chime_error_reason(st), "FRAME_TOO_LARGE");
    CHECK(code == CHIME_RESOURCE_EXHAUSTED); /* the waiting call heard it */
    chime_close(c);
  }
  if (server >= 0) close(server);
  close(listener);
  unlink(address.sun_path);
}

/* Counts a subscription's events; on SUBSCRIBED it makes a blocking call from inside the
 * callback (a nested turn of the same connection's machine). */
typedef struct mixed_state {
  chime_client *client;
  bool live;
  int added; /* PENDING_ADDED events for mix-* */
  int nested_code;
} mixed_state;

static int mixed_on_event(const chime_event *event, void *context) {
  mixed_state *m = context;
  if (chime_event_kind(event) == CHIME_EVENT_SUBSCRIBED) {
    m->live = true;
    m->nested_code = chime_add_interval(m->client, "mix-one", "One", NULL, 3600, false, NULL, NULL);
  } else if (chime_event_kind(event) == CHIME_EVENT_PENDING_ADDED &&
             strncmp(chime_event_identifier_at(event, 0), "mix-", 4) == 0) {
    m->added++;
  }
  return 0;
}

/* Blocking calls on a connection that carries a subscription: from the subscription's own
 * callback and from the loop's thread between turns; no event is lost, whichever call reads it. */
static void test_blocking_calls_beside_a_subscription(void) {
  chime_client *c = connect_app("org.example.ctest.mixed");
  if (c == NULL) return;
  mixed_state m = {.client = c, .nested_code = -1};
  chime_subscription *sub = NULL;
  CHECK_OK(chime_subscribe_start(c, NULL, mixed_on_event, NULL, &m, &sub, st), st);
  int64_t give_up = monotonic_ms() + 10000;
  while (!m.live && monotonic_ms() < give_up) {
    CHECK(poll_turn(c, 1000) >= 0);
  }
  CHECK(m.live && m.nested_code == CHIME_OK);
  CHECK_OK(chime_add_interval(c, "mix-two", "Two", NULL, 3600, false, NULL, st), st);
  chime_notification_list *list = NULL;
  CHECK_OK(chime_pending(c, &list, st), st);
  CHECK(chime_notification_list_count(list) == 2);
  chime_notification_list_free(list);
  while (m.added < 2 && monotonic_ms() < give_up) {
    CHECK(poll_turn(c, 1000) >= 0);
  }
  CHECK(m.added == 2);
  CHECK(chime_subscription_active(sub));
  chime_subscription_cancel(sub);
  CHECK_OK(chime_remove_all(c, NULL, st), st); /* the connection serves on after the Cancel */
  chime_close(c);
}

/* Accessors and error readers take NULL and answer "" or 0; the raw call reaches any method. */
static void test_null_accessors_and_raw_call(void) {
  CHECK_STR(chime_error_reason(NULL), "");
  CHECK(chime_error_code(NULL) == CHIME_OK);
  CHECK_STR(chime_notification_title(NULL), "");
  CHECK(chime_notification_list_count(NULL) == 0 && chime_notification_list_at(NULL, 0) == NULL);
  CHECK_STR(chime_id_list_at(NULL, 0), "");
  CHECK_STR(chime_category_action_title(NULL, 3), "");
  CHECK_STR(chime_app_id(NULL), "");
  CHECK(chime_request_new(NULL) == NULL && chime_request_set_title(NULL, "x") == CHIME_INVALID_ARGUMENT);
  CHECK_STR(chime_code_name(99), "UNKNOWN_CODE");
  chime_client *c = connect_app("org.example.ctest.raw");
  if (c == NULL) return;
  Chime__V1__Empty empty = CHIME__V1__EMPTY__INIT;
  ProtobufCMessage *answer = NULL;
  CHECK_OK(chime_call_message(c, "GetServerInfo", &empty.base, &chime__v1__server_info__descriptor, &answer, st), st);
  CHECK(answer != NULL && ((Chime__V1__ServerInfo *)answer)->pid > 0);
  chime_message_free(answer);
  CHECK(chime_call_message(c, "NoSuchMethod", &empty.base, &chime__v1__empty__descriptor, &answer, st) ==
        CHIME_UNIMPLEMENTED);
  CHECK(answer == NULL);
  chime_close(c);
}

/* Runs last: a client whose daemon shuts down gets UNAVAILABLE, not a hang or a signal. */
static void test_daemon_shutdown(void) {
  chime_client *c = connect_app("org.example.ctest.shutdown");
  if (c == NULL) return;
  CHECK_OK(chime_add_interval(c, "kept", "Kept", NULL, 3600, false, NULL, st), st);
  int exit_status = stop_daemon();
  CHECK(exit_status == 0);
  if (exit_status != 0) {
    fprintf(stderr, "    chimed exited with %d after SIGTERM\n", exit_status);
  }
  chime_notification_list *list = NULL;
  CHECK(chime_pending(c, &list, st) == CHIME_UNAVAILABLE);
  CHECK(chime_pending(c, &list, st) == CHIME_UNAVAILABLE); /* and stays so */
  chime_close(c);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  st = chime_error_new();
  if (st == NULL) {
    fprintf(stderr, "chime_error_new: out of memory\n");
    return 2;
  }
  start_daemon();
  run("add, pending, remove", test_add_pending_remove);
  run("same identifier replaces", test_same_identifier_replaces);
  run("pending follows pages", test_many_pages);
  run("invalid interval and content errors", test_invalid_interval);
  run("apps are isolated", test_app_isolation);
  run("a ring and its auto-snooze are kept, filled with the default sound, refused out of range", test_ring);
  run("bad app id and unimplemented methods", test_bad_app_and_unimplemented);
  run("generic call sees a delivery", test_generic_call_sees_delivery);
  run("categories set, get, refused", test_categories);
  run("responses and their refusals", test_respond);
  run("calendar trigger and next trigger dates", test_calendar_and_next_dates);
  run("weekday sets, ends and recurrence rules", test_weekdays_ends_and_recurrence);
  run("attachments and sounds in add", test_attachments_and_sounds);
  run("delivered pages and removal", test_delivered_calls);
  run("snooze", test_snooze);
  run("subscribe: live, resume cursor, stop", test_subscribe_live_resume_stop);
  run("push and a service extension", test_push_and_service_extension);
  run("media buttons and extension answers", test_media_and_extension_answers);
  run("a content extension: deliveries, responses, media", test_content_extension_and_media);
  run("authorization, settings, badge", test_authorization_settings_badge);
  run("app registration, apps, sounds", test_apps_and_sounds);
  run("do not disturb", test_do_not_disturb);
  run("oversized call is refused locally", test_oversized_call);
  run("connect errors", test_connect_errors);
  run("timeouts", test_timeout);
  run("malformed reply", test_malformed_reply);
  run("a subscription on a GLib main loop, no threads", test_glib_loop_subscription);
  run("a subscription, a deadline and a malformed frame on a poll(2) loop", test_poll_loop);
  run("blocking calls beside a subscription on the same connection", test_blocking_calls_beside_a_subscription);
  run("NULL accessors and the raw call", test_null_accessors_and_raw_call);
  run("daemon shutdown", test_daemon_shutdown);
  if (failed > 0) {
    print_daemon_log();
  }
  if (daemon_pid > 0) {
    stop_daemon();
  }
  nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  chime_error_free(st);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
