#!/usr/bin/env bash
# Runs the tests of the non-Swift clients (clients/python, clients/c, clients/go) against the
# real chimed.
#
# chimed must be built already: $CHIME_BIN_DIR/chimed, default <repo>/.build/debug/chimed
# (the top-level `make test` runs `swift build` first). Installs the Python requirements with
# pip when they are missing. Every step runs even if an earlier one failed; the exit status is
# non-zero when any failed. PYTHON picks the interpreter (default python3). --prepare: the
# virtualenv and the Python requirements only (scripts/test-build.sh, during the build).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
export CHIME_BIN_DIR=${CHIME_BIN_DIR:-$repo/.build/debug}
# A virtualenv of our own by default: Debian's system Python refuses pip installs (PEP 668).
if [ -n "${PYTHON:-}" ]; then
  python=$PYTHON
else
  venv=$repo/.build-venv
  if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv for the Python client's tests"
    python3 -m venv "$venv" || { echo "clients/test.sh: python3 -m venv failed (apt-get install python3-venv)" >&2; exit 1; }
  fi
  python=$venv/bin/python
fi

if [ ! -x "$CHIME_BIN_DIR/chimed" ] && [ "${1:-}" != --prepare ]; then
  echo "clients/test.sh: no chimed at $CHIME_BIN_DIR/chimed: run 'swift build' first or set CHIME_BIN_DIR" >&2
  exit 1
fi

failed=()
step() {
  local name=$1
  shift
  echo "== $name"
  if ! "$@"; then
    echo "== $name: FAILED" >&2
    failed+=("$name")
  fi
}

# True when every requirement is installed (and every == pin matches exactly).
python_requirements_met() {
  "$python" - "$here/python/requirements.txt" <<'PY'
import re, sys
from importlib import metadata
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, op, want = re.match(r"([A-Za-z0-9_.-]+)\s*(==|>=)?\s*(\S*)", line).groups()
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if op == "==" and have != want:
        sys.exit(1)
PY
}

install_python_requirements() {
  python_requirements_met && return 0
  echo "installing Python requirements (clients/python/requirements.txt)"
  if ! "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore \
      -r "$here/python/requirements.txt"; then
    echo "clients/test.sh: could not install the Python requirements into $("$python" -c 'import sys; print(sys.executable)');" \
      "install them yourself (a virtualenv works: PYTHON=/path/to/venv/bin/python clients/test.sh)" >&2
    return 1
  fi
}

# Each test bounded by pytest-timeout (PYTEST_TEST_TIMEOUT seconds, default 120; a test takes
# well under a second to a few seconds): one that hangs fails with its name and its stack, and
# the run goes on. -rx prints the reason of each expected failure (a known bug elsewhere).
python_tests() {
  (cd "$here/python" && "$python" -m pytest -q -rx -p no:cacheprovider --timeout="${PYTEST_TEST_TIMEOUT:-120}" tests)
}

# `pip install clients/python` works offline (setuptools is the build backend, no isolation
# needed) and the installed package is the one imported. Installed into a temp dir, not the venv.
python_pip_install() {
  local target
  target=$(mktemp -d "${TMPDIR:-/tmp}/chime-pip-XXXXXX")
  local rc=0
  "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps \
      --no-build-isolation --target "$target" "$here/python" &&
    (cd / && PYTHONPATH="$target" "$python" -c '
import sys, chime_client
from chime_client import Client, Pending, FireDate
assert chime_client.__file__.startswith(sys.argv[1]), chime_client.__file__
assert hasattr(Client, "next_trigger_dates")
print("installed chime-client", chime_client.__version__)' "$target") || rc=1
  rm -rf "$target" "$here/python/build" "$here/python"/*.egg-info
  return $rc
}

# Skipped, saying so, without the Go plugins (scripts/install-deps.sh installs them).
go_check_generated() {
  if ! command -v protoc-gen-go >/dev/null || ! command -v protoc-gen-go-grpc >/dev/null; then
    echo "go: generated-code check skipped: no protoc-gen-go/protoc-gen-go-grpc (scripts/install-deps.sh)"
    return 0
  fi
  "$here/go/check-generated.sh"
}

if [ "${1:-}" = --prepare ]; then
  install_python_requirements
  exit
fi
step "python: requirements" install_python_requirements
step "python: pip install clients/python" python_pip_install
step "python: generated code matches Protos/" "$here/python/check-generated.sh"
step "python: pytest" python_tests
step "c: build, test, under ASan+UBSan, under valgrind" make -s -C "$here/c" check
step "go: generated code matches Protos/" go_check_generated
step "go: the example against chimed" "$here/go/test.sh"

if [ ${#failed[@]} -gt 0 ]; then
  echo "clients/test.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "clients/test.sh: all client tests passed"
