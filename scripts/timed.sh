#!/usr/bin/env bash
# Runs a command and says how long it took, so a `make test` log shows where its minutes go:
#   scripts/timed.sh COMMAND [ARGS...]
start=$SECONDS
"$@"
status=$?
echo "== timed: $* took $((SECONDS - start)) s (exit $status) ==" >&2
exit "$status"
