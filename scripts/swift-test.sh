#!/usr/bin/env bash
# Runs the Swift suite in parallel; on failure repeats what went wrong at the end, where a CI
# log that shows only its tail still shows it (the failing expectation, a crash's first lines).
set -uo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
log=.build/test.log
mkdir -p .build
# Built here too (a no-op after `make test`'s build): run alone after an edit, --skip-build
# would test the previous build and pass.
"$swift" build --build-tests 2>&1 | tail -n 20
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "swift-test: the build failed" >&2; exit 1; }
"$swift" test --skip-build --parallel 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo
  echo "== what failed (full output in $log) =="
  grep -E "recorded an issue|✘ Test .* failed|Fatal error|Program crashed|Signal [0-9]+|crashed:|error:" "$log" | grep -v "✘ Test run with" | head -40
fi
exit "$status"
