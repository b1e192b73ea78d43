#!/usr/bin/env bash
# Chime Center as a person uses it (tests/center/center_test.py, through AT-SPI) on a private
# desktop session (tests/center/session.sh: Xvfb, a session bus that activates the built chimed,
# the accessibility bus), plus when.py's unit tests. Skipped with a message only when no display
# server can be started here (no Xvfb). Everything lives in a temporary directory; only the
# processes started here are stopped, by pid. CHIME_BIN_DIR picks chime and chimed
# (default <repo>/.build/debug). About 10 seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${CHIME_BIN_DIR:-$repo/.build/debug}
py=/usr/bin/python3  # Debian's: it has python3-gi and python3-pyatspi (the pyenv first on PATH does not)

"$py" -m unittest discover -s "$repo/center/tests" 2>&1 | tail -1
if ! command -v Xvfb >/dev/null; then
  echo "tests/center: SKIPPED: no display server can be started here (Xvfb is missing; scripts/install-deps.sh installs it)"
  exit 0
fi
[ -x "$bin/chimed" ] || { echo "tests/center: no chimed at $bin/chimed: run 'swift build' first" >&2; exit 1; }
"$py" -c 'import gi; gi.require_version("Adw", "1"); import pyatspi' 2>/dev/null || {
  echo "tests/center: python3-gi, gir1.2-adw-1 or python3-pyatspi is missing (scripts/install-deps.sh installs them)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/chime-center.XXXXXX)
source "$here/session.sh"
fail_logs() {
  echo "--- chimed's log:" >&2; tail -20 "$tmp/chimed.log" >&2 2>/dev/null || true
  echo "--- the Center's log:" >&2; tail -30 "$tmp/center.log" >&2 2>/dev/null || true
}
trap 'session_stop; rm -rf "$tmp"' EXIT
session_start
cat > "$XDG_DATA_HOME/applications/org.example.tea.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=Tea Timer
Exec=true
Icon=preferences-system-time
DESKTOP

# Installed as `make install` lays it out (in a prefix of the temporary directory) and started
# as a user does from a terminal: `chime center`, which execs the installed launcher. No chimed
# runs yet: the Center's first call activates it.
make -s -C "$repo" install-center PREFIX="$tmp/prefix" DESTDIR= >/dev/null
mkdir -p "$tmp/prefix/bin" && cp "$bin/chime" "$tmp/prefix/bin/chime"
grep -qx "Exec=$tmp/prefix/libexec/chime/chime-center" "$tmp/prefix/share/applications/io.github.chime.Center.desktop"
"$tmp/prefix/bin/chime" center >"$tmp/center.log" 2>&1 &
pids+=($!)
CHIME=$bin/chime timeout 60 "$py" ${CENTER_TEST:-$here/center_test.py} || { fail_logs; exit 1; }
