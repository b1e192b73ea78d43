/*
 * chime-c-example: a tiny CLI over libchime-client.
 *
 *   chime-c-example [--socket PATH] [--app APP_ID] add ID SECONDS [TITLE [BODY]] [--repeats]
 *   chime-c-example [--socket PATH] [--app APP_ID] pending
 *   chime-c-example [--socket PATH] [--app APP_ID] remove ID...
 *   chime-c-example [--socket PATH] [--app APP_ID] remove-all
 *
 * The app defaults to $CHIME_APP, else "org.example.chime-c"; the socket to chimed's default.
 * Exits 0 on success, 1 when the daemon answers with an error (printed to stderr), 2 on
 * usage errors.
 */
#define _POSIX_C_SOURCE 200809L /* localtime_r */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <chime/chime.h>

static int usage(const char *program) {
  fprintf(stderr,
          "usage: %s [--socket PATH] [--app APP_ID] COMMAND\n"
          "commands:\n"
          "  add ID SECONDS [TITLE [BODY]] [--repeats]   schedule a time-interval request\n"
          "  pending                                     list pending requests\n"
          "  remove ID...                                remove pending requests\n"
          "  remove-all                                  remove every pending request\n",
          program);
  return 2;
}

static int report(const chime_error *error) {
  fprintf(stderr, "chime-c-example: %s (%s): %s", chime_code_name(chime_error_code(error)), chime_error_reason(error),
          chime_error_message(error));
  if (chime_error_field(error)[0] != '\0') {
    fprintf(stderr, " [field %s]", chime_error_field(error));
  }
  fputc('\n', stderr);
  return 1;
}

static void format_time(int64_t unix_ms, char *buf, size_t size) {
  time_t seconds = (time_t)(unix_ms / 1000);
  struct tm local;
  if (localtime_r(&seconds, &local) == NULL || strftime(buf, size, "%Y-%m-%d %H:%M:%S", &local) == 0) {
    snprintf(buf, size, "%lld ms", (long long)unix_ms);
  }
}

static void print_removed(const chime_id_list *removed) {
  printf("removed %zu\n", chime_id_list_count(removed));
  for (size_t i = 0; i < chime_id_list_count(removed); i++) {
    printf("  %s\n", chime_id_list_at(removed, i));
  }
}

int main(int argc, char **argv) {
  const char *socket_path = NULL;
  const char *app = getenv("CHIME_APP");
  if (app == NULL || app[0] == '\0') {
    app = "org.example.chime-c";
  }
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) {
      socket_path = argv[++i];
    } else if (strcmp(argv[i], "--app") == 0 && i + 1 < argc) {
      app = argv[++i];
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(argv[0]);
      return 0;
    } else {
      break;
    }
  }
  if (i >= argc) {
    return usage(argv[0]);
  }
  const char *command = argv[i++];
  int rest = argc - i;
  char **args = argv + i;

  bool repeats = false;
  if (strcmp(command, "add") == 0) {
    int kept = 0;
    for (int k = 0; k < rest; k++) {
      if (strcmp(args[k], "--repeats") == 0) {
        repeats = true;
      } else {
        args[kept++] = args[k];
      }
    }
    rest = kept;
    if (rest < 2 || rest > 4) {
      return usage(argv[0]);
    }
  } else if ((strcmp(command, "pending") == 0 || strcmp(command, "remove-all") == 0) && rest != 0) {
    return usage(argv[0]);
  } else if (strcmp(command, "remove") == 0 && rest < 1) {
    return usage(argv[0]);
  } else if (strcmp(command, "add") != 0 && strcmp(command, "pending") != 0 && strcmp(command, "remove") != 0 &&
             strcmp(command, "remove-all") != 0) {
    return usage(argv[0]);
  }

  chime_error *status = chime_error_new();
  chime_client *chime = NULL;
  if (chime_connect(&chime, socket_path, app, status) != CHIME_OK) {
    int failed = report(status);
    chime_error_free(status);
    return failed;
  }
  int exit_code = 0;
  if (strcmp(command, "add") == 0) {
    char *end = NULL;
    double seconds = strtod(args[1], &end);
    if (end == args[1] || *end != '\0') {
      fprintf(stderr, "chime-c-example: SECONDS must be a number, not \"%s\"\n", args[1]);
      chime_close(chime);
      chime_error_free(status);
      return 2;
    }
    int64_t next_fire = 0;
    if (chime_add_interval(chime, args[0], rest > 2 ? args[2] : args[0], rest > 3 ? args[3] : NULL, seconds, repeats,
                           &next_fire, status) != CHIME_OK) {
      exit_code = report(status);
    } else {
      char when[64];
      format_time(next_fire, when, sizeof when);
      printf("scheduled %s for %s%s\n", args[0], when, repeats ? " (repeats)" : "");
    }
  } else if (strcmp(command, "pending") == 0) {
    chime_notification_list *list = NULL;
    if (chime_pending(chime, &list, status) != CHIME_OK) {
      exit_code = report(status);
    } else {
      printf("%zu pending\n", chime_notification_list_count(list));
      for (size_t k = 0; k < chime_notification_list_count(list); k++) {
        const chime_notification *item = chime_notification_list_at(list, k);
        char when[64];
        format_time(chime_notification_next_fire_unix_ms(item), when, sizeof when);
        printf("  %-24s %s  %s %gs  \"%s\"\n", chime_notification_identifier(item), when,
               chime_notification_repeats(item) ? "every" : "once, after", chime_notification_interval_seconds(item),
               chime_notification_title(item));
      }
      chime_notification_list_free(list);
    }
  } else {
    chime_id_list *removed = NULL;
    int code = strcmp(command, "remove") == 0
                   ? chime_remove(chime, (const char *const *)args, (size_t)rest, &removed, status)
                   : chime_remove_all(chime, &removed, status);
    if (code != CHIME_OK) {
      exit_code = report(status);
    } else {
      print_removed(removed);
      chime_id_list_free(removed);
    }
  }
  chime_close(chime);
  chime_error_free(status);
  return exit_code;
}
