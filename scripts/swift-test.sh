#!/usr/bin/env bash
# Runs the Swift suite in parallel; on failure repeats what went wrong at the end, where a CI
# log that shows only its tail still shows it (the failing expectation, a crash's first lines).
#
# A watchdog bounds the run: past CHIME_TEST_TIMEOUT_MINUTES (default 15; the whole suite takes
# about a minute on an idle machine) the tests still running are named, the test process is
# killed and the run fails, so a hang is a named failure rather than a job killed by CI.
# Arguments are passed to `swift test` (e.g. --filter PushTests).
set -uo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
log="${CHIME_TEST_LOG:-.build/test.log}"
limit_minutes="${CHIME_TEST_TIMEOUT_MINUTES:-15}"
mkdir -p .build
# The in-process daemons of one test process share libuv's work pool (4 threads by default):
# tests that hold threads on purpose (a hanging thumbnail helper, a check that runs long) would
# make another test's sound or commit wait past its patience. chimed runs alone in its process.
export UV_THREADPOOL_SIZE="${UV_THREADPOOL_SIZE:-16}"
# Swift Testing runs every test as a task on the concurrency runtime's cooperative pool: one
# thread per core, two here. Most synchronous tests block their thread (an fdatasync, a child
# process, a daemon's reply), and the async tests with in-process daemons then waited behind
# them: nothing ended for the first minute and a half, and the suite took 130-200 s. The
# runtime's plain dispatch queues add a thread while workers are blocked, so blocked tests no
# longer hold the others back (about 115 s). The test process only: SpawnedProcess takes it out
# of the environment of the chimed and chime it starts.
export SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES="${SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES:-false}"
# Built here too (a no-op after `make test`'s build): run alone after an edit, --skip-build
# would test the previous build and pass.
"$swift" build --build-tests 2>&1 | tail -n 20
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "swift-test: the build failed" >&2; exit 1; }

# The tests and suites that started and have not ended, from Swift Testing's output in $1.
still_running() {
  awk '
    function name(line, kind, n) {
      n = line
      sub("^[^ ]+ " kind " ", "", n)
      sub(" (started\\.|passed|failed|skipped)( .*|:.*|\\.)?$", "", n)
      sub(" with [0-9]+ test cases?$", "", n)
      return n
    }
    /^◇ Test case / { next }  # the cases of a parameterized test: no line ends them
    /^◇ Test run started\.$/ { next }
    /^✘ Test .* recorded an issue/ { next }
    /^◇ (Test|Suite) .* started\.$/ {
      kind = ($2 == "Test") ? "Test" : "Suite"; n = name($0, kind)
      if (!((kind, n) in count)) order[++k] = kind SUBSEP n
      count[kind, n]++
      next
    }
    /^(✔|✘|➜) (Test|Suite) .* (passed|failed|skipped)( after| with|:|\.)/ {
      kind = ($2 == "Test") ? "Test" : "Suite"; count[kind, name($0, kind)]--
    }
    END {
      for (i = 1; i <= k; i++) {
        split(order[i], part, SUBSEP)
        if (count[part[1], part[2]] > 0) printf "  %s %s\n", part[1], part[2]
      }
    }' "$1"
}

: >"$log"
# Its own session, so the watchdog can end it and everything it started (the test binary, the
# daemons the tests run) by the session's id.
# Line-buffered (stdbuf, inherited by the test binary): the log holds every line up to the
# moment the watchdog reads it, not a buffer that dies with the killed process.
setsid stdbuf -oL -eL "$swift" test --skip-build --parallel "$@" >"$log" 2>&1 &
test_pid=$!
tail -n +1 -f --pid="$test_pid" "$log" &
tail_pid=$!
deadline=$((SECONDS + limit_minutes * 60))
hung=0
stacks="${log%.log}-stacks.txt"
# Every thread's stack of the test binary (gdb, when installed), into $stacks: what a hung test
# waits for, which a CI log otherwise never shows.
dump_stacks() {
  command -v gdb >/dev/null || { echo "(gdb is not installed: no stacks)" >"$stacks"; return; }
  local binary
  binary=$(ps -o pid=,args= -s "$test_pid" | awk '/PackageTests|\.xctest/ { print $1; exit }')
  [ -n "$binary" ] || return
  timeout 120 gdb -p "$binary" -batch -ex "set pagination off" -ex "thread apply all bt 30" 2>/dev/null \
    | "$swift" demangle --simplified >"$stacks"
}
# A test past its time limit (Swift Testing records it and lets it run on) ends the run 30 s
# later: the rest of the suite has had time to end, and waiting out the whole watchdog only
# spends CI's time.
late_deadline=0
while kill -0 "$test_pid" 2>/dev/null; do
  if [ "$late_deadline" -eq 0 ] && grep -q "Time limit was exceeded" "$log"; then
    late_deadline=$((SECONDS + 30))
  fi
  if [ "$SECONDS" -ge "$deadline" ] || { [ "$late_deadline" -ne 0 ] && [ "$SECONDS" -ge "$late_deadline" ]; }; then
    hung=1
    running=$(still_running "$log")
    dump_stacks
    # Every process of the session: `swift test` runs the test binary in a process group of
    # its own, which outlives its parent.
    pids=$(ps -o pid= -s "$test_pid")
    [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      pids=$(ps -o pid= -s "$test_pid")
      [ -z "$pids" ] && break
      sleep 1
    done
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    break
  fi
  sleep 2
done
wait "$test_pid"
status=$?
wait "$tail_pid" 2>/dev/null

if [ "$hung" -eq 1 ]; then
  echo
  if [ "$late_deadline" -ne 0 ]; then
    echo "== swift-test: a test passed its time limit and the run was ended; these were still running =="
  else
    echo "== swift-test: the run did not end within $limit_minutes min (CHIME_TEST_TIMEOUT_MINUTES); these were still running =="
  fi
  if [ -n "$running" ]; then echo "$running"; else echo "  (none named: the hang came before or after the tests)"; fi
  if [ -s "$stacks" ]; then
    echo "== the stacks of the threads that run Chime's code (all threads: $stacks) =="
    # A thread's header, its top three frames (what it waits in), then its frames in Chime's
    # modules and tests; threads with none of those are left out.
    awk 'function flush() { if (ours) printf "%s", kept; kept = ""; ours = 0 }
         /^Thread / { flush(); kept = $0 "\n"; n = 0; next }
         /^#/ { n++; mine = ($0 ~ /\/(Sources|Tests)\//); if (mine) ours = 1
                if (n <= 3 || mine) kept = kept "  " substr($0, 1, 240) "\n" }
         END { flush() }' "$stacks" | head -150
  fi
  echo "== the test process was killed; full output in $log =="
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo
  echo "== what failed (full output in $log) =="
  grep -E "recorded an issue|✘ Test .* failed|Fatal error|Program crashed|Signal [0-9]+|crashed:|error:" "$log" | grep -v "✘ Test run with" | head -40
fi
exit "$status"
