#!/usr/bin/env bash
# Fails when the committed generated code differs from what Protos/ produces now.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scripts/gen-proto.sh "$tmp/gen" >/dev/null
if ! diff -r "$tmp/gen" Sources/CChimeProto/Generated; then
  echo "Generated protobuf-c code drifted from Protos/: run 'make proto' and commit." >&2
  exit 1
fi
scripts/gen-descriptors.sh "$tmp/chime.protoset"
if ! cmp -s "$tmp/chime.protoset" Sources/CChimeDescriptors/Generated/chime.protoset; then
  echo "The descriptor set drifted from Protos/: run 'make proto' and commit." >&2
  exit 1
fi
# The call plumbing (scripts/gen-calls.py): method list, call table, routes, client stubs.
scripts/gen-calls.py "$tmp/calls"
for f in $(cd "$tmp/calls" && find Sources -name '*.swift' | sort); do
  if ! diff -u "$f" "$tmp/calls/$f"; then
    echo "The generated call plumbing ($f) drifted from Protos/ or the codecs: run 'make proto' and commit." >&2
    exit 1
  fi
done
sum=$(sha256sum Sources/CChimeDescriptors/Generated/chime.protoset | cut -d' ' -f1)
if ! grep -qx "// chime.protoset sha256: $sum" Sources/CChimeDescriptors/descriptors.S; then
  echo "descriptors.S does not name the descriptor set's checksum (a build would link a stale set): run 'make proto' and commit." >&2
  exit 1
fi
echo "generated code matches Protos/"
