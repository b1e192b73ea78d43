#!/usr/bin/env bash
# Instructions per durable add under `valgrind --tool=callgrind`: a figure that does not move
# with the machine's load, checked against bench/baseline.json.
#
#   scripts/bench-check.sh                 measure, compare, fail when a figure grew > 10%
#   scripts/bench-check.sh --update        measure and rewrite bench/baseline.json
#   scripts/bench-check.sh --measure-only  measure and print, no baseline (the short check)
#   scripts/bench-check.sh --profile       measure, then print the ten functions that cost most
#                                          per add in each (scripts/bench-profile.py), no baseline
#
# Two figures, each by difference so start-up and shutdown cancel: a run with N adds and one
# with 2N, (I(2N) - I(N)) / N.
#   daemon: chimed (release) under callgrind; the adds come from a native `chime-bench --client-adds`.
#   client: `chime-bench --client-adds` (ChimeClient, release) under callgrind against a native chimed.
# N is 1000: a daemon's instructions include the WAL checkpoints (one per ~1000 pages written,
# about 115 lone adds) and the one at shutdown, whose size depends on where the last one fell;
# with N=100 the same build measured 252k and 282k, with N=1000 262k and 266k.
# Environment: BENCH_CHECK_ADDS (N, default 1000), BENCH_CHECK_TOLERANCE (percent, default 10),
# BUILD_DIR (default .build/release; build it first: `swift build -c release`).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
  --update) mode=update ;;
  --measure-only) mode=measure ;;
  --profile) mode=profile ;;
  "") ;;
  *) echo "usage: $0 [--update | --measure-only]" >&2; exit 2 ;;
esac

n="${BENCH_CHECK_ADDS:-1000}"
tolerance="${BENCH_CHECK_TOLERANCE:-10}"
bin="${BUILD_DIR:-.build/release}"
baseline=bench/baseline.json
for b in chimed chime-bench; do
  [ -x "$bin/$b" ] || { echo "bench-check: $bin/$b is missing; run: swift build -c release" >&2; exit 2; }
done
for tool in valgrind strip python3 cc; do
  command -v "$tool" >/dev/null || { echo "bench-check: $tool is not installed (scripts/install-deps.sh)" >&2; exit 2; }
done

tmp=$(mktemp -d /tmp/chime-bench-check-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${BENCH_CHECK_KEEP:-}" ] && echo "bench-check: kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT

# valgrind 3.19 gives up on the DWARF 5 that Swift 6 writes ("unhandled dwarf2 abbrev form"):
# run copies without debug info (the instructions are the same).
mkdir -p "$tmp/bin"
for b in chimed chime-bench; do
  strip --strip-debug -o "$tmp/bin/$b" "$bin/$b"
done
bin="$tmp/bin"
# valgrind 3.19 answers ENOSYS to pidfd_open and pidfd_send_signal, and chimed then refuses every
# peer: the daemon under valgrind gets a small preloaded stand-in (bench/valgrind-pidfd-shim.c).
cc -O2 -shared -fPIC -o "$tmp/pidfd-shim.so" bench/valgrind-pidfd-shim.c

# Starts chimed (optionally under a wrapper) in directory $1; sets $daemon_pid and $socket once
# it has printed its "listening" line (bounded: 180 s under valgrind).
start_daemon() {
  local dir=$1; shift
  mkdir -p "$dir"
  socket="$dir/chimed.sock"
  "$@" "$bin/chimed" --socket "$socket" --data-dir "$dir/data" --apps-dir "$dir/apps" --log-level warning \
    >"$dir/stdout" 2>"$dir/stderr" &
  daemon_pid=$!
  pids+=("$daemon_pid")
  for _ in $(seq 1 1800); do
    grep -q listening "$dir/stdout" 2>/dev/null && return 0
    kill -0 "$daemon_pid" 2>/dev/null || { echo "bench-check: chimed exited early:" >&2; cat "$dir/stderr" >&2; exit 1; }
    sleep 0.1
  done
  echo "bench-check: chimed did not start within 180 s" >&2
  exit 1
}

# SIGTERM and wait (bounded: 120 s) for the daemon started last.
stop_daemon() {
  kill -TERM "$daemon_pid"
  for _ in $(seq 1 1200); do
    kill -0 "$daemon_pid" 2>/dev/null || { wait "$daemon_pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  echo "bench-check: chimed did not stop within 120 s" >&2
  exit 1
}

# Total instructions (Ir) in a callgrind output file, into $result.
instructions() {
  result=$(sed -n -e 's/^totals: *\([0-9]*\).*/\1/p' -e 's/^summary: *\([0-9]*\).*/\1/p' "$1" | head -1)
  [ -n "$result" ] || { echo "bench-check: no totals in $1" >&2; exit 1; }
}

callgrind=(valgrind --tool=callgrind --quiet)

adds() { timeout 900 "$bin/chime-bench" --client-adds "$1" --socket "$2"; }

# chimed's instructions with $1 adds, into $result (no subshells: the EXIT trap must see every pid).
daemon_run() {
  local dir="$tmp/daemon-$1"
  start_daemon "$dir" env LD_PRELOAD="$tmp/pidfd-shim.so" "${callgrind[@]}" --callgrind-out-file="$dir/callgrind.out"
  adds "$1" "$socket"
  stop_daemon
  instructions "$dir/callgrind.out"
}

# The client process's instructions with $1 adds (chimed native), into $result.
client_run() {
  local dir="$tmp/client-$1"
  start_daemon "$dir"
  timeout 900 "${callgrind[@]}" --callgrind-out-file="$dir/callgrind.out" \
    "$bin/chime-bench" --client-adds "$1" --socket "$socket"
  stop_daemon
  instructions "$dir/callgrind.out"
}

started=$(date +%s)
daemon_run "$n"; d1=$result
daemon_run $((2 * n)); d2=$result
client_run "$n"; c1=$result
client_run $((2 * n)); c2=$result
daemon_per_add=$(( (d2 - d1) / n ))
client_per_add=$(( (c2 - c1) / n ))
elapsed=$(( $(date +%s) - started ))
echo "instructions per add (callgrind, N=$n and 2N, difference / N; ${elapsed} s):"
echo "  daemon (chimed add path): $daemon_per_add   [chimed totals $d1 / $d2]"
echo "  client (ChimeClient add): $client_per_add   [client totals $c1 / $c2]"
if [ "$daemon_per_add" -le 0 ] || [ "$client_per_add" -le 0 ]; then
  echo "bench-check: a per-add figure is not positive; the difference method failed" >&2
  exit 1
fi

case "$mode" in
  measure) exit 0 ;;
  profile)
    echo "== daemon (chimed) =="
    scripts/bench-profile.py "$tmp/daemon-$n/callgrind.out" "$tmp/daemon-$((2 * n))/callgrind.out" "$n"
    echo "== client (ChimeClient) =="
    scripts/bench-profile.py "$tmp/client-$n/callgrind.out" "$tmp/client-$((2 * n))/callgrind.out" "$n"
    ;;
  update)
    revision=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    python3 - "$baseline" "$daemon_per_add" "$client_per_add" "$n" "$revision" <<'EOF'
import json, sys, datetime
path, daemon, client, n, revision = sys.argv[1:]
json.dump({
    "daemon_instructions_per_add": int(daemon),
    "client_instructions_per_add": int(client),
    "adds": int(n),
    "revision": revision,
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "valgrind": __import__("subprocess").run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip(),
    "command": f"BENCH_CHECK_ADDS={n} scripts/bench-check.sh --update  (make bench-baseline)",
    "method": "valgrind --tool=callgrind total Ir; runs with N and 2N adds, (I(2N) - I(N)) / N; "
              "daemon: release chimed under callgrind, adds from native chime-bench --client-adds; "
              "client: release chime-bench --client-adds (ChimeClient) under callgrind against native chimed",
}, open(path, "w"), indent=2)
open(path, "a").write("\n")
EOF
    echo "wrote $baseline (commit it with the reason the figures moved)"
    ;;
  check)
    [ -f "$baseline" ] || { echo "bench-check: no $baseline; make one with: make bench-baseline" >&2; exit 2; }
    python3 - "$baseline" "$daemon_per_add" "$client_per_add" "$tolerance" <<'EOF'
import json, sys
path, daemon, client, tolerance = sys.argv[1:]
base = json.load(open(path))
failed = False
for name, key, now in (("daemon", "daemon_instructions_per_add", int(daemon)),
                       ("client", "client_instructions_per_add", int(client))):
    was = base[key]
    change = (now - was) / was * 100
    verdict = "ok"
    if change > float(tolerance):
        verdict = f"GREW more than {tolerance}%"
        failed = True
    print(f"  {name}: {now} instructions per add vs baseline {was} ({change:+.1f}%) {verdict}")
print(f"baseline from {base.get('revision')} on {base.get('date')}: {base.get('command')}")
if failed:
    print("bench-check FAILED: instructions per add grew past the tolerance (see above). "
          "If that is deliberate, run `make bench-baseline` and commit bench/baseline.json with the reason.")
    sys.exit(1)
print("bench-check passed")
EOF
    ;;
esac
