#!/usr/bin/env bash
# `make test`'s build: `swift build --build-tests` and, beside it, what the later stages would
# otherwise fetch one after another once it is done: the short real-world corpus (the Swift
# suite reads it) and the virtualenvs of the client, D-Bus, gRPC, sandbox and calendar stages
# (each script's own --prepare, the same install it does when run alone). On a fresh clone that
# was about a minute of venv creation and pip installs after the build, spent while the build's
# second core often waits; during it, it costs the build a few seconds.
# Each part says how long it took; the preparation's output is printed after the build's.
# Fails when either part fails.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
mkdir -p .build
log=.build/test-prepare.log
{
  scripts/timed.sh scripts/realworld/build.sh --short || exit 1
  failed=0
  for prepare in clients/test.sh tests/dbus/run.sh tests/grpc/test.sh tests/sandbox/run.sh scripts/calendar/oracle.sh; do
    scripts/timed.sh "$prepare" --prepare || failed=1
  done
  exit "$failed"
} >"$log" 2>&1 </dev/null &
prepare_pid=$!
scripts/timed.sh "$swift" build --build-tests
built=$?
wait "$prepare_pid"
prepared=$?
echo "== test-build: the corpus and the virtualenvs, made during the build =="
cat "$log"
[ "$built" -eq 0 ] || exit "$built"
[ "$prepared" -eq 0 ] || { echo "test-build: preparing the corpus or a virtualenv failed (above)" >&2; exit 1; }
