#!/usr/bin/env bash
# gRPC end-to-end tests: grpcio (and a plain HTTP/2 client for bad input) against a real chimed
# on a Unix socket in a temporary directory, the native `chime` CLI on the same socket.
#
# chimed and chime must be built already: $CHIME_BIN_DIR (default <repo>/.build/debug). The
# requirements go into a virtualenv of their own (<repo>/.build-venv-grpc; PYTHON picks another
# interpreter), installed with pip when missing. Each test is bounded by pytest-timeout.
# --prepare: the virtualenv and its requirements only (scripts/test-build.sh, during the build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export CHIME_BIN_DIR=${CHIME_BIN_DIR:-$repo/.build/debug}
if [ -n "${PYTHON:-}" ]; then
  python=$PYTHON
else
  venv=$repo/.build-venv-grpc
  if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv for the gRPC tests"
    python3 -m venv "$venv"
  fi
  python=$venv/bin/python
fi
if ! "$python" -c 'import grpc, grpc_tools, grpc_reflection, grpc_health, grpc_status, h2, hpack, hyperframe, pytest, pytest_timeout' 2>/dev/null; then
  echo "installing the gRPC tests' requirements (tests/grpc/requirements.txt)"
  "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore -r "$here/requirements.txt"
fi
[ "${1:-}" = --prepare ] && exit 0
cd "$here"
exec "$python" -m pytest -q -p no:cacheprovider --timeout="${PYTEST_TEST_TIMEOUT:-60}" "$@" .
