// libsystemd's daemon API for chimed: socket activation (sd_listen_fds, sd_is_socket_unix) and
// readiness (sd_notify, sd_watchdog_enabled).
#include <systemd/sd-daemon.h>
