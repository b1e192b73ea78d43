#!/usr/bin/env bash
# Regenerates the Go messages and gRPC stubs under src/chime/v1/ (import path "chime/v1",
# package chimev1) from Protos/, with Debian's protoc, protoc-gen-go and protoc-gen-go-grpc.
# Usage: clients/go/generate.sh [OUT_DIR]   (default: the committed location, src/)
#
# clients/go is a GOPATH workspace (Debian's Go builds it offline in GOPATH mode, the gRPC and
# protobuf packages coming from /usr/share/gocode). Protos/ names no go_package, so the import
# path is given to both plugins with M options. The output is deterministic:
# check-generated.sh diffs against it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$here/src}
for tool in protoc protoc-gen-go protoc-gen-go-grpc; do
  command -v "$tool" >/dev/null || { echo "generate.sh: no $tool: run scripts/install-deps.sh" >&2; exit 1; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cd "$repo/Protos"
protos=$(find chime -name '*.proto' | sort)
if echo "$protos" | grep -qv '^chime/v1/'; then
  echo "generate.sh: Protos/ has packages besides chime/v1; teach this script about them" >&2
  exit 1
fi
mappings=()
for f in $protos; do
  mappings+=("--go_opt=M$f=chime/v1;chimev1" "--go-grpc_opt=M$f=chime/v1;chimev1")
done
protoc -I. --go_out="$tmp" --go_opt=paths=source_relative --go-grpc_out="$tmp" \
  --go-grpc_opt=paths=source_relative "${mappings[@]}" $protos

rm -rf "$out/chime/v1"
mkdir -p "$out/chime/v1"
cp "$tmp"/chime/v1/*.go "$out/chime/v1/"
