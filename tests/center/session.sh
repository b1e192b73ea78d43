# Sourced by tests/center/run.sh and scripts/center-screenshots.sh: a private desktop session in
# $tmp: Xvfb on a free display, a session bus of its own whose only service is chimed (Exec= the
# built chimed, as `make install` points it at the installed one, so the Center's first call
# activates it), and the accessibility bus. Every process started is recorded in `pids` and
# stopped by pid in `session_stop`. Needs: bin (chimed/chime directory), tmp, repo.
pids=()
session_stop() {
  local pid
  pid=$(busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus GetConnectionUnixProcessID s io.github.chime.Chime1 2>/dev/null | awk '{print $2}')
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
}

# Bounded (10 s) wait until the command succeeds.
session_wait() {
  for _ in $(seq 100); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "center: timed out waiting for: $*" >&2
  return 1
}

session_start() {
  local n=$((400 + $$ % 300))
  while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
  Xvfb ":$n" -screen 0 "${SCREEN:-1024x768x24}" -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
  pids+=($!)
  session_wait test -S "/tmp/.X11-unix/X$n"
  export DISPLAY=":$n"
  mkdir -p "$tmp/services" "$tmp/home" "$tmp/config" "$tmp/data-home/applications" "$tmp/runtime" "$tmp/cache"
  chmod 700 "$tmp/runtime"
  export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data-home XDG_RUNTIME_DIR=$tmp/runtime \
    XDG_CACHE_HOME=$tmp/cache CHIME_SOCKET=$tmp/chimed.sock GSETTINGS_BACKEND=memory GTK_A11Y=atspi
  unset NO_AT_BRIDGE
  # shellcheck source=../lib/private-bus.sh
  . "$repo/tests/lib/private-bus.sh"
  start_private_bus "$tmp" "$repo" "\"$bin/chimed\" --socket \"$tmp/chimed.sock\" --data-dir \"$tmp/data\" --presenter none --sound-player none" \
    '/^SystemdService=/d'
  pids+=("$private_bus_pid")
  # The accessibility bus, as a desktop session starts it (GTK finds it through org.a11y.Bus).
  /usr/libexec/at-spi-bus-launcher --launch-immediately >"$tmp/atspi.log" 2>&1 &
  pids+=($!)
  session_wait busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus GetNameOwner s org.a11y.Bus
}
