#!/usr/bin/env bash
# `make test`'s stages after the Swift suite, in two lanes at once: each stage spends most of
# its time waiting on a daemon, a bus, a child or a disk sync, not on a core, and one after
# another they took three and a half minutes. Every stage runs (a failure does not stop the
# others) and says how long it took; its output is printed whole when it ends, so two stages'
# lines never interleave. Fails when any failed.
#   scripts/test-rigs.sh            both lanes (SERIAL=1: one stage after another)
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d "${TMPDIR:-/tmp}/chime-rigs.XXXXXX")
trap 'rm -rf "$logs"' EXIT

# Each lane about the same length here: clients (pytest, the C client under ASan and valgrind,
# Go) with the calendar checks; the D-Bus, gRPC, Center and sandbox rigs.
lane_a=("scripts/calendar/oracle.sh" "tests/calendar/rig.sh" "clients/test.sh")
lane_b=("tests/dbus/run.sh" "tests/grpc/test.sh" "tests/center/run.sh" "tests/sandbox/run.sh")

# Runs the stages of one lane in order; prints each stage's output when it ends.
lane() {
  local name=$1 failed=0 stage n=0 out
  shift
  for stage in "$@"; do
    n=$((n + 1))
    out="$logs/$name-$n.log"
    # shellcheck disable=SC2086  # a stage is a command line
    scripts/timed.sh $stage >"$out" 2>&1 </dev/null || failed=1
    { echo "==== $stage (lane $name) ===="; cat "$out"; } | flock "$logs" cat
  done
  return "$failed"
}

if [ -n "${SERIAL:-}" ]; then
  lane a "${lane_a[@]}" "${lane_b[@]}"
  exit
fi
lane a "${lane_a[@]}" &
a=$!
lane b "${lane_b[@]}" &
b=$!
status=0
wait "$a" || status=1
wait "$b" || status=1
[ "$status" -eq 0 ] || echo "test-rigs: a stage failed (its output above)" >&2
exit "$status"
