#!/usr/bin/env bash
# Regenerates the descriptor set chimed's gRPC reflection answers from
# (Sources/CChimeDescriptors/Generated/chime.protoset, linked into chimed by descriptors.S): every
# file of Protos/, and grpc.health.v1 (which chimed serves beside them) from the copy of
# grpc-proto that Debian's golang-google-grpc-dev ships, so grpcurl can describe and call it too;
# and google/rpc/status.proto and error_details.proto (the google.rpc.Status and ErrorInfo of a
# refusal's grpc-status-details-bin), so a client can decode a refusal's details. Debian ships
# those two only as the descriptors compiled into golang-google-genproto-dev's Go sources:
# scripts/go-descriptors.py takes them out for protoc (--descriptor_set_in), and
# google/protobuf/any.proto and duration.proto they import come from protoc's own include files.
# Usage: scripts/gen-descriptors.sh [OUT_FILE]   (default: the committed location)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-Sources/CChimeDescriptors/Generated/chime.protoset}
grpc_proto=/usr/share/gocode/src/google.golang.org/grpc/debian/missing-sources/grpc/grpc-proto/master
if [ ! -f "$grpc_proto/grpc/health/v1/health.proto" ]; then
  echo "gen-descriptors: $grpc_proto/grpc/health/v1/health.proto is missing (apt-get install golang-google-grpc-dev)" >&2
  exit 1
fi
genproto=/usr/share/gocode/src/google.golang.org/genproto/googleapis/rpc
for go in status/status.pb.go errdetails/error_details.pb.go; do
  if [ ! -f "$genproto/$go" ]; then
    echo "gen-descriptors: $genproto/$go is missing (apt-get install golang-google-genproto-dev)" >&2
    exit 1
  fi
done
mkdir -p "$(dirname "$out")"
rpc=$(mktemp); trap 'rm -f "$rpc"' EXIT
scripts/go-descriptors.py "$genproto/status/status.pb.go" "$genproto/errdetails/error_details.pb.go" >"$rpc"
mapfile -t protos < <(cd Protos && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort)
protoc --descriptor_set_in="$rpc" -IProtos -I"$grpc_proto" --include_imports --descriptor_set_out="$out" \
  "${protos[@]}" grpc/health/v1/health.proto google/rpc/status.proto google/rpc/error_details.proto
# The set is linked by .incbin, which the build does not track: descriptors.S names the set's
# checksum, so a new set (from here, a merge or a checkout) changes the file the build does track.
if [ -z "${1:-}" ]; then
  sum=$(sha256sum "$out" | cut -d' ' -f1)
  sed -i "s|^// chime.protoset sha256: .*|// chime.protoset sha256: $sum|" Sources/CChimeDescriptors/descriptors.S
fi
