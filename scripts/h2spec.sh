#!/usr/bin/env bash
# HTTP/2 conformance of chimed's gRPC transport with h2spec (`make h2spec`; not part of
# `make test`): builds h2spec from its source, starts a chimed on a Unix socket in a temporary
# directory, bridges a loopback TCP port to that socket (h2spec only dials TCP) and runs
# h2spec's `http2` and `hpack` sections, then prints passed and failed counts per section and
# the cases that failed.
#
#   H2SPEC_SRC=/path/to/h2spec scripts/h2spec.sh [extra h2spec flags]
#
# H2SPEC_SRC is h2spec's source (github.com/summerwind/h2spec): a checked-out tree or a bare
# git repository (its HEAD is used). It is built offline in GOPATH mode against Debian's Go
# packages (scripts/install-deps.sh --h2spec). h2spec's source is never part of this repository.
# chimed comes from $CHIME_BIN_DIR (default <repo>/.build/debug). H2SPEC_REPORT=FILE keeps the
# JUnit report; H2SPEC_VERBOSE=1 prints h2spec's own output too. Exits 1 when a case failed that is not listed in scripts/h2spec-expected.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
bin_dir=${CHIME_BIN_DIR:-$repo/.build/debug}

if [ -z "${H2SPEC_SRC:-}" ] || [ ! -d "$H2SPEC_SRC" ]; then
  echo "set H2SPEC_SRC to h2spec's source (a checkout or bare git repository of github.com/summerwind/h2spec)" >&2
  exit 2
fi
[ -x "$bin_dir/chimed" ] || { echo "no chimed at $bin_dir: run 'swift build' or set CHIME_BIN_DIR" >&2; exit 2; }
"$here/install-deps.sh" --h2spec

work=$(mktemp -d "${TMPDIR:-/tmp}/chime-h2spec.XXXXXX")
chimed_pid="" socat_pid=""
cleanup() {
  [ -z "$socat_pid" ] || kill "$socat_pid" 2>/dev/null || true
  if [ -n "$chimed_pid" ]; then
    kill -TERM "$chimed_pid" 2>/dev/null || true
    wait "$chimed_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# h2spec in a GOPATH of its own, with Debian's packages (/usr/share/gocode) for its imports.
src=$work/gopath/src/github.com/summerwind/h2spec
mkdir -p "$src"
if [ -d "$H2SPEC_SRC/objects" ] && [ -f "$H2SPEC_SRC/HEAD" ]; then
  git --git-dir="$H2SPEC_SRC" archive HEAD | tar -x -C "$src"
else
  cp -R "$H2SPEC_SRC/." "$src"
fi
echo "building h2spec from $H2SPEC_SRC"
(cd "$src" && GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOFLAGS= GOCACHE="$work/gocache" \
  go build -o "$work/h2spec" ./cmd/h2spec)

# chimed, on a socket in the temporary directory.
mkdir -m 0700 "$work/run"
XDG_RUNTIME_DIR=$work/run XDG_STATE_HOME=$work/state XDG_DATA_HOME=$work/share XDG_CONFIG_HOME=$work/config \
  SWIFT_BACKTRACE=enable=no CHIME_SOCKET='' \
  "$bin_dir/chimed" --socket "$work/chimed.sock" --data-dir "$work/data" --log-level notice \
  >"$work/chimed.out" 2>"$work/chimed.log" </dev/null &
chimed_pid=$!
for _ in $(seq 200); do
  grep -q '^chimed listening on ' "$work/chimed.out" 2>/dev/null && break
  kill -0 "$chimed_pid" 2>/dev/null || { echo "chimed exited:" >&2; cat "$work/chimed.log" >&2; exit 1; }
  sleep 0.1
done
grep -q '^chimed listening on ' "$work/chimed.out" || { echo "chimed did not start" >&2; exit 1; }

# A free loopback port for the bridge (the kernel picks it; socat binds it at once after).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# (socat's complaints about connections h2spec or chimed dropped on purpose go to a log.)
socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:$work/chimed.sock" 2>"$work/socat.log" &
socat_pid=$!
for _ in $(seq 100); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null && break
  sleep 0.1
done

report=${H2SPEC_REPORT:-$work/h2spec.xml}
# The path of a real unary method: requests with a body reach a call (GET is answered 405).
set +e
"$work/h2spec" http2 hpack -h 127.0.0.1 -p "$port" -P /chime.v1.NotificationCenter/GetServerInfo -o 3 \
  -j "$report" "$@" >"$work/h2spec.out" 2>&1
set -e
[ -z "${H2SPEC_VERBOSE:-}" ] || cat "$work/h2spec.out"
[ -s "$report" ] || { echo "h2spec wrote no report:" >&2; cat "$work/h2spec.out" >&2; exit 1; }

python3 - "$report" "$here/h2spec-expected.txt" <<'EOF'
import sys
import xml.etree.ElementTree as ET

report, expected_path = sys.argv[1], sys.argv[2]
expected = set()
with open(expected_path) as f:
    for line in f:
        line = line.split("#", 1)[0].strip()
        if line:
            expected.add(line)
counts: dict[str, list[int]] = {}
failed = []
for suite in ET.parse(report).getroot().iter("testsuite"):
    section = suite.get("package", "")
    top = section.split("/", 1)[0]
    for n, case in enumerate(suite.iter("testcase"), 1):
        entry = counts.setdefault(top, [0, 0, 0])
        if case.find("skipped") is not None:
            entry[2] += 1
        elif case.find("failure") is not None or case.find("error") is not None:
            entry[1] += 1
            failed.append(f"{section}/{n}")
        else:
            entry[0] += 1
        # h2spec names a case by its group and its position in it: "http2/8.1.2.1/3".
        if case.find("failure") is not None or case.find("error") is not None:
            print(f"  failed {section}/{n}: {case.get('classname')}")
for top, (ok, bad, skipped) in counts.items():
    print(f"{top}: {ok} passed, {bad} failed, {skipped} skipped")
unexpected = [f for f in failed if f not in expected]
for case in sorted(expected - set(failed)):
    print(f"note: {case} is listed in scripts/h2spec-expected.txt but passed")
if unexpected:
    print("unexpected failures: " + ", ".join(unexpected))
    sys.exit(1)
EOF
