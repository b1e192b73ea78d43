#!/usr/bin/env bash
# Fails when the committed chime_client/generated/ modules differ from what Protos/ produces now.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$here/generate.sh" "$tmp/gen"
if ! diff -r -x __pycache__ "$tmp/gen" "$here/chime_client/generated"; then
  echo "Python generated code drifted from Protos/: run clients/python/generate.sh and commit." >&2
  exit 1
fi
echo "python generated code matches Protos/"
