#!/usr/bin/env bash
# run-bounded.sh SECONDS SOURCE.c COMMAND...: runs a C test binary for at most SECONDS (then
# SIGTERM, and SIGKILL 10 s later). The binary prints "ok   NAME" or "FAIL NAME" as each test
# ends, in the order of the run("NAME", ...) calls of SOURCE.c; when the bound is hit, the test
# that was running is the first of those names with no such line, and is named.
set -uo pipefail
seconds=$1
source=$2
shift 2
out=$(mktemp "${TMPDIR:-/tmp}/chime-c-test-XXXXXX")
trap 'rm -f "$out"' EXIT
timeout -k 10 "$seconds" "$@" | tee "$out"
status=${PIPESTATUS[0]}
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  running=""
  while IFS= read -r name; do
    if ! grep -qxF -e "ok   $name" -e "FAIL $name" "$out" && ! grep -qF "FAIL $name (" "$out"; then
      running=$name
      break
    fi
  done < <(grep -oE '^[[:space:]]*run\("[^"]+"' "$source" | sed -E 's/^[[:space:]]*run\("//; s/"$//')
  echo "TIMEOUT: $(basename "$source" .c) ($*) did not finish within $seconds s; the test running was: ${running:-(not found in $(basename "$source"))}" >&2
  exit 1
fi
exit "$status"
