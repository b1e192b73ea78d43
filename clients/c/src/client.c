/* libchime-client: the client object, its connection to chimed and its settings. */
#define _GNU_SOURCE /* SOCK_CLOEXEC */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "chime-private.h"

const char *chime_default_socket_path(char *buf, size_t size) {
  const char *explicit_path = getenv("CHIME_SOCKET");
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  int n;
  if (explicit_path != NULL && explicit_path[0] != '\0') {
    n = snprintf(buf, size, "%s", explicit_path);
  } else if (runtime != NULL && runtime[0] != '\0') {
    n = snprintf(buf, size, "%s/chime/chimed.sock", runtime);
  } else {
    n = snprintf(buf, size, "/tmp/chime-%u/chimed.sock", (unsigned)getuid());
  }
  return (n < 0 || (size_t)n >= size) ? NULL : buf;
}

int chime_connect(chime_client **out, const char *socket_path, const char *app_id, chime_error *error) {
  if (out == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "out is NULL");
  }
  *out = NULL;
  if (app_id == NULL) {
    return chimei_fail(error, CHIME_INVALID_ARGUMENT, "INVALID_ARGUMENT", "app_id is NULL");
  }
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (socket_path == NULL) {
    if (chime_default_socket_path(address.sun_path, sizeof address.sun_path) == NULL) {
      return chimei_fail(error, CHIME_INVALID_ARGUMENT, "SOCKET_PATH_TOO_LONG",
                         "the default socket path is longer than %zu bytes", sizeof address.sun_path - 1);
    }
  } else {
    if (strlen(socket_path) >= sizeof address.sun_path) {
      return chimei_fail(error, CHIME_INVALID_ARGUMENT, "SOCKET_PATH_TOO_LONG",
                         "socket path is longer than %zu bytes: %s", sizeof address.sun_path - 1, socket_path);
    }
    memcpy(address.sun_path, socket_path, strlen(socket_path) + 1);
  }

  chime_client *client = calloc(1, sizeof *client);
  if (client == NULL) {
    return chimei_oom(error);
  }
  client->fd = -1;
  client->stop_fd = -1;
  client->next_call_id = 1;
  client->timeout_ms = CHIMEI_DEFAULT_TIMEOUT_MS;
  client->app_id = strdup(app_id);
  client->socket_path = strdup(address.sun_path);
  if (client->app_id == NULL || client->socket_path == NULL) {
    chime_close(client);
    return chimei_oom(error);
  }
  client->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  client->fd = client->stop_fd < 0 ? -1 : socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (client->fd < 0) {
    int failure = errno;
    chime_close(client);
    return chimei_fail(error, CHIME_UNAVAILABLE, "DAEMON_UNAVAILABLE", "cannot create a socket: %s",
                       strerror(failure));
  }
  int rc;
  do {
    rc = connect(client->fd, (const struct sockaddr *)&address, sizeof address);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    int failure = errno;
    chime_close(client);
    return chimei_fail(error, CHIME_UNAVAILABLE, "DAEMON_UNAVAILABLE", "cannot connect to chimed at %s: %s",
                       address.sun_path, strerror(failure));
  }
  *out = client;
  return chimei_ok(error);
}

void chime_close(chime_client *client) {
  if (client == NULL) {
    return;
  }
  /* Calls still waiting end now: their callbacks hear CANCELLED; subscription handles stay the
   * caller's to free. */
  chime_error why;
  chimei_fail(&why, CHIME_CANCELLED, "CANCELLED", "the client was closed");
  chimei_fail_all(client, &why);
  free(client->in);
  free(client->out);
  if (client->fd >= 0) {
    close(client->fd);
  }
  if (client->stop_fd >= 0) {
    close(client->stop_fd);
  }
  free(client->app_id);
  free(client->socket_path);
  free(client);
}

void chime_set_timeout_ms(chime_client *client, int timeout_ms) {
  if (client != NULL) {
    client->timeout_ms = timeout_ms;
  }
}

void chime_subscribe_stop(chime_client *client) {
  if (client != NULL && client->stop_fd >= 0) {
    uint64_t one = 1;
    (void)!write(client->stop_fd, &one, sizeof one);
  }
}
