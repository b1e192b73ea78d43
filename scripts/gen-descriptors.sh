#!/usr/bin/env bash
# Regenerates the descriptor set chimed's gRPC reflection answers from
# (Sources/CChimeDescriptors/Generated/chime.protoset, linked into chimed by descriptors.S): every
# file of Protos/, and grpc.health.v1 (which chimed serves beside them) from the copy of
# grpc-proto that Debian's golang-google-grpc-dev ships, so grpcurl can describe and call it too.
# Usage: scripts/gen-descriptors.sh [OUT_FILE]   (default: the committed location)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Sources/CChimeDescriptors/Generated/chime.protoset}
grpc_proto=/usr/share/gocode/src/google.golang.org/grpc/debian/missing-sources/grpc/grpc-proto/master
if [ ! -f "$grpc_proto/grpc/health/v1/health.proto" ]; then
  echo "gen-descriptors: $grpc_proto/grpc/health/v1/health.proto is missing (apt-get install golang-google-grpc-dev)" >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
mapfile -t protos < <(cd Protos && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort)
protoc -IProtos -I"$grpc_proto" --include_imports --descriptor_set_out="$out" "${protos[@]}" grpc/health/v1/health.proto
# The set is linked by .incbin, which the build does not track: make the next build assemble it.
if [ -z "${1:-}" ]; then touch Sources/CChimeDescriptors/descriptors.S; fi
