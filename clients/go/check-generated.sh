#!/usr/bin/env bash
# Fails when the committed Go code under src/chime/v1 differs from what Protos/ produces now.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$here/generate.sh" "$tmp/src"
if ! diff -r "$tmp/src/chime/v1" "$here/src/chime/v1"; then
  echo "Go generated code drifted from Protos/: run clients/go/generate.sh (or make proto) and commit." >&2
  exit 1
fi
echo "go generated code matches Protos/"
