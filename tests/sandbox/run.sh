#!/usr/bin/env bash
# Apps in a real sandbox (issue 42). bubblewrap, the sandbox Flatpak runs apps in, lays an app
# out as Flatpak does: /.flatpak-info with [Application] name=APP_ID (bound from a descriptor,
# read-only, as Flatpak binds it), the app's own /app (its program and bundled Python modules),
# the host's /usr as its runtime, private /tmp, pid, user, IPC, UTS and network namespaces (an
# app without --share=network; its Unix sockets are paths, which still work), $FLATPAK_ID,
# and chimed's runtime directory bound at /run/user/UID/chime as Flatpak's
# `--filesystem=xdg-run/chime` binds it. From inside, with chimed reading the real /proc:
#   - the native socket (the `chime` CLI bundled in /app) and gRPC (clients/python): the app acts
#     as itself, is refused another app's id (APP_ID_MISMATCH) and the user's settings
#     (USER_SETTING_FROM_SANDBOX), sees only its own requests; a sandbox whose .flatpak-info
#     names no app is refused (PEER_NOT_IDENTIFIED);
#   - D-Bus through xdg-dbus-proxy, run as Flatpak runs it (in its own bubblewrap with the app's
#     /.flatpak-info, so chimed, asking the bus for the caller's pid, finds the app): with
#     --talk=io.github.chime.Chime1 the app reaches chimed as itself without Register and is
#     refused as above, and gets its Delivered signal; without it the name is hidden and no call
#     gets through;
#   - the README's example ("For app developers on Linux"), extracted and run as written: it
#     schedules through the proxy, and falls back when the proxy does not let it talk.
# The host's `chime` then checks who owns what. Everything lives in a temporary directory; only
# the processes started here are stopped, by pid. CHIME_BIN_DIR picks chimed and chime (default
# <repo>/.build/debug).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${CHIME_BIN_DIR:-$repo/.build/debug}
name=io.github.chime.Chime1
app=org.example.Sandboxed
other=org.example.Other
uid=$(id -u)

for tool in bwrap xdg-dbus-proxy dbus-daemon gdbus /usr/bin/python3; do
  command -v $tool >/dev/null || { echo "tests/sandbox: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
[ -x "$bin/chimed" ] && [ -x "$bin/chime" ] || [ "${1:-}" = --prepare ] || { echo "tests/sandbox: no chimed and chime in $bin: run 'swift build' first" >&2; exit 1; }

# The app's bundled modules: a virtualenv of the runtime's python3 (Debian's), its site-packages
# bound into /app as a Flatpak app's pip modules are installed there.
venv=$repo/.build-venv-sandbox
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
"$venv/bin/python" -c 'import grpc, google.rpc.status_pb2, dbus_next' 2>/dev/null \
  || "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
# --prepare: that virtualenv only (scripts/test-build.sh makes it during the build).
[ "${1:-}" = --prepare ] && exit 0
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

tmp=$(mktemp -d /tmp/chime-sandbox.XXXXXX)
pids=()
cleanup() {
  local pid
  for pid in ${pids[@]+"${pids[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in ${pids[@]+"${pids[@]}"}; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL $*" >&2
  [ -f "$tmp/chimed.log" ] && { echo "--- chimed's log:" >&2; tail -20 "$tmp/chimed.log" >&2; }
  exit 1
}
passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
# Polls CONDITION (a command) every 50 ms for at most SECONDS.
wait_for() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.05
  done
}

mkdir -p "$tmp/run/chime" "$tmp/home" "$tmp/config" "$tmp/data-home" "$tmp/services"
chmod 700 "$tmp/run" "$tmp/run/chime"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data-home XDG_RUNTIME_DIR=$tmp/run
unset CHIME_SOCKET CHIME_APP

# A private session bus on which chimed's name is activatable (the service file as installed).
# shellcheck source=../lib/private-bus.sh
. "$repo/tests/lib/private-bus.sh"
start_private_bus "$tmp" "$repo" "\"$bin/chimed\" --data-dir \"$tmp/data\" --presenter none --sound-player none"
pids+=("$private_bus_pid")

# chimed on the default socket ($XDG_RUNTIME_DIR/chime/chimed.sock) and the bus, reading /proc.
"$tmp/chimed.sh" &
pids+=("$!")
has_name() { gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner $name 2>/dev/null | grep -q true; }
wait_for 30 has_name || fail "chimed did not take $name"
[ -S "$tmp/run/chime/chimed.sock" ] || fail "chimed has no socket at $tmp/run/chime/chimed.sock"
# A request of another app, made by a host program (which may act as any app).
"$bin/chime" add host-only --title "Host" --in 1h --app $other >/dev/null || fail "the host's add as $other"

# An app's files: /.flatpak-info as Flatpak writes it, /app with its program, the `chime` CLI
# and its bundled modules (mount points made here, so nothing is created inside read-only /app).
make_app() {
  local id=$1 dir=$tmp/apps/$1
  mkdir -p "$dir/app/bin" "$dir/app/lib/python3/site-packages" "$dir/app/lib/chime-client" "$dir/bus"
  printf '[Application]\nname=%s\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n[Instance]\ninstance-id=%s\n' \
    "$id" "$RANDOM" > "$dir/flatpak-info"
  cp "$here/grpc_app.py" "$here/dbus_app.py" "$dir/app/bin/"
  : > "$dir/app/bin/chime"
}
make_app $app
make_app broken
sed -i 's/^name=.*/name=not an app id/' "$tmp/apps/broken/flatpak-info"

# Runs COMMAND in APP's sandbox (at most a minute); with a proxy socket DIR given (-b DIR), that socket is the
# session bus inside (/run/flatpak/bus, where Flatpak puts it).
sandbox() {
  local bus_args=()
  if [ "$1" = -b ]; then bus_args=(--bind "$2" /run/flatpak --setenv DBUS_SESSION_BUS_ADDRESS unix:path=/run/flatpak/bus); shift 2; fi
  local id=$1 dir=$tmp/apps/$1; shift
  # Bounded: past a minute the sandbox is killed (--die-with-parent takes its processes along).
  timeout 60 bwrap --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-net --unshare-cgroup-try --die-with-parent --new-session \
    --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin --symlink usr/sbin /sbin \
    --ro-bind /etc /etc --proc /proc --dev /dev --tmpfs /tmp \
    --ro-bind-data 3 /.flatpak-info \
    --ro-bind "$dir/app" /app --ro-bind "$bin/chime" /app/bin/chime \
    --ro-bind "$site" /app/lib/python3/site-packages --ro-bind "$repo/clients/python" /app/lib/chime-client \
    --ro-bind-try /opt/swift/usr/lib/swift/linux /opt/swift/usr/lib/swift/linux \
    --dir /run/user/"$uid" --bind "$tmp/run/chime" /run/user/"$uid"/chime \
    --clearenv --setenv PATH /app/bin:/usr/bin --setenv HOME /tmp --setenv XDG_RUNTIME_DIR /run/user/"$uid" \
    --setenv FLATPAK_ID "$id" --setenv OTHER_APP $other \
    --setenv PYTHONPATH /app/lib/python3/site-packages:/app/lib/chime-client --setenv PYTHONDONTWRITEBYTECODE 1 \
    ${bus_args[@]+"${bus_args[@]}"} \
    -- "$@" 3<"$dir/flatpak-info"
}

# The native socket, with the CLI the app bundles.
out=$(sandbox $app chime add native-tea --title "Tea" --in 1h --app $app 2>&1) || fail "native add as itself: $out"
out=$(sandbox $app chime pending --app $app 2>&1) || fail "native pending: $out"
echo "$out" | grep -q native-tea && ! echo "$out" | grep -q host-only || fail "native pending lists: $out"
ok "native: the sandboxed app acts as $app and sees only its own requests"
out=$(sandbox $app chime pending --app $other 2>&1) && fail "native pending as $other was answered: $out"
echo "$out" | grep -q APP_ID_MISMATCH || fail "native pending as $other: $out"
out=$(sandbox $app chime add spoof --title "Spoof" --in 1h --app $other 2>&1) && fail "native add as $other was accepted: $out"
echo "$out" | grep -q APP_ID_MISMATCH || fail "native add as $other: $out"
ok "native: acting as $other is APP_ID_MISMATCH"
out=$(sandbox $app chime dnd on --app $app 2>&1) && fail "native dnd on was accepted: $out"
echo "$out" | grep -q USER_SETTING_FROM_SANDBOX || fail "native dnd on: $out"
out=$(sandbox $app chime apps deny $other --app $app 2>&1) && fail "native apps deny was accepted: $out"
echo "$out" | grep -q USER_SETTING_FROM_SANDBOX || fail "native apps deny: $out"
ok "native: the user's settings (Do Not Disturb, another app's) are USER_SETTING_FROM_SANDBOX"
out=$(sandbox broken chime pending --app $app 2>&1) && fail "a sandbox naming no app was answered: $out"
echo "$out" | grep -q PEER_NOT_IDENTIFIED || fail "a sandbox naming no app: $out"
ok "native: a sandbox whose .flatpak-info names no app is PEER_NOT_IDENTIFIED"

# gRPC, with the Python client the app bundles.
sandbox $app python3 /app/bin/grpc_app.py || fail "the sandboxed gRPC app (above)"
passed=$((passed + 3))  # its "ok" lines

# D-Bus through xdg-dbus-proxy, run as Flatpak runs it: in a sandbox of its own with the app's
# /.flatpak-info, the filtered socket in a directory the app's sandbox gets as /run/flatpak.
# proxy APP DIR [--talk=NAME]: starts it and waits for its socket.
proxy() {
  local id=$1 dir=$2; shift 2
  mkdir -p "$dir"
  bwrap --unshare-user --unshare-pid --die-with-parent --new-session \
    --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin \
    --ro-bind-data 3 /.flatpak-info --bind "$tmp" "$tmp" \
    -- xdg-dbus-proxy "$DBUS_SESSION_BUS_ADDRESS" "$dir/bus" --filter "$@" 3<"$tmp/apps/$id/flatpak-info" &
  pids+=("$!")
  wait_for 10 test -S "$dir/bus" || fail "xdg-dbus-proxy made no socket in $dir"
}
proxy $app "$tmp/apps/$app/talk" --talk=$name
proxy $app "$tmp/apps/$app/no-talk"
sandbox -b "$tmp/apps/$app/talk" $app python3 /app/bin/dbus_app.py || fail "the sandboxed D-Bus app with --talk (above)"
sandbox -b "$tmp/apps/$app/no-talk" $app python3 /app/bin/dbus_app.py denied || fail "the sandboxed D-Bus app without --talk (above)"
passed=$((passed + 5))  # their "ok" lines

# The README's example as written: through the proxy it schedules; without --talk it falls back.
/usr/bin/python3 - "$repo/README.md" > "$tmp/apps/$app/app/bin/reminder.py" <<'PY'
import re, sys
section = open(sys.argv[1]).read().split("## For app developers on Linux", 1)[1].split("\n## ", 1)[0]
print(re.search(r"```python\n(.*?)```", section, re.S).group(1), end="")
PY
out=$(sandbox -b "$tmp/apps/$app/talk" $app python3 /app/bin/reminder.py 2>&1) || fail "the README example through the proxy: $out"
echo "$out" | grep -q "^scheduled stretch" || fail "the README example through the proxy printed: $out"
out=$(sandbox -b "$tmp/apps/$app/no-talk" $app python3 /app/bin/reminder.py 2>&1) || fail "the README example without --talk: $out"
echo "$out" | grep -q "^Chime is not reachable" || fail "the README example without --talk printed: $out"
ok "the README example schedules from the sandbox through the proxy, and falls back without --talk"

# Who owns what, seen from the host: everything the sandbox made is the app's.
out=$("$bin/chime" pending --app $app 2>&1)
for id in native-tea grpc-tea dbus-tea stretch; do echo "$out" | grep -q "$id" || fail "$app's pending lacks $id: $out"; done
out=$("$bin/chime" pending --app $other 2>&1)
echo "$out" | grep -q host-only && ! echo "$out" | grep -Eq 'spoof|tea|stretch' || fail "$other's pending: $out"
"$bin/chime" dnd status 2>&1 | grep -qi "off" || fail "Do Not Disturb changed: $("$bin/chime" dnd status 2>&1)"
ok "the host sees the sandbox's requests under $app alone, and Do Not Disturb unchanged"
echo "tests/sandbox: $passed passed, 0 failed"
