#!/usr/bin/env bash
# Regenerates the descriptor set of Protos/ that chimed's gRPC reflection answers from
# (Sources/CChimeDescriptors/Generated/chime.protoset, linked into chimed by descriptors.S).
# Usage: scripts/gen-descriptors.sh [OUT_FILE]   (default: the committed location)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Sources/CChimeDescriptors/Generated/chime.protoset}
mkdir -p "$(dirname "$out")"
find Protos -name '*.proto' | LC_ALL=C sort | xargs protoc -IProtos --include_imports --descriptor_set_out="$out"
